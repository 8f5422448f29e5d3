// play.html's own script: the canvas, the keys, the pace (real time, or turbo by the play window's
// rule), the sound, the listing's highlight and the variables panel. The machine is spectrum.js's.
(function () {
  "use strict";
  const ZX = window.ZX;
  const payload = JSON.parse(document.getElementById("payload").textContent);
  const facts = payload.facts;
  const $ = (id) => document.getElementById(id);
  const canvas = $("screen"), ctx = canvas.getContext("2d", {willReadFrequently: true});
  const image = ctx.createImageData(320, 256);
  const listing = $("listing"), varBody = document.querySelector("#variables tbody");
  const wasm = ZX.decodeBase64(payload.wasm), rom = ZX.decodeBase64(payload.rom);
  const tapes = {};
  for (const [lang, b64] of Object.entries(payload.tapes)) tapes[lang] = ZX.decodeBase64(b64);

  const page = {session: null, machine: null, lang: "ru", turbo: true, readingTime: true, paused: false,
    userPaused: false, help: false, highlighted: null, drawnFrames: 0, ran: {turbo: 0, real: 0, skipped: 0},
    titleAt: null, fast: false, moment: null,
    touchRow: "", translated: {frame: -1, key: ""}, said: "", waitKey: ""};
  window.zxPage = page;

  async function start(lang, seed, record) {
    const m = await ZX.Machine.create(wasm, rom, facts.key_positions);
    const s = new ZX.Session(m, facts, seed, record || null);
    s.start(tapes[lang]);
    const marked = page.highlighted !== null && document.getElementById("L" + page.highlighted);
    if (marked) marked.classList.remove("now");   // the last game's line: one line is marked, never two
    page.machine = m; page.session = s; page.lang = lang; page.highlighted = null;
    page.fast = !!record; page.moment = null; page.fromSlot = false;
    $("seed").value = seed === null || seed === undefined ? "" : String(seed);
    $("tape").value = lang;
    page.values = new Map();
    varBody.textContent = "";                     // the last game's rows
    listingFor(lang);
    page.translated = {frame: -1, key: null}; page.waitKey = "";
    $("momentinfo").textContent = ""; $("link").hidden = true;
    draw(true);
    return s;
  }
  page.start = start;

  // ---------------------------------------------------------------- the listing of the chosen tape
  const russianLines = new Map();
  function listingFor(lang) {
    for (const [n, text] of Object.entries(payload.listing_en)) {
      const li = document.getElementById("L" + n);
      if (!li) continue;
      const node = li.lastChild;
      if (!russianLines.has(n)) russianLines.set(n, node.textContent);
      node.textContent = lang === "en" ? " " + text : russianLines.get(n);
    }
  }

  // ---------------------------------------------------------------- drawing
  function highlight(line) {
    if (line === page.highlighted) return;
    const old = page.highlighted !== null && document.getElementById("L" + page.highlighted);
    if (old) old.classList.remove("now");
    const li = document.getElementById("L" + line);
    page.highlighted = li ? line : null;
    if (!li) return;
    li.classList.add("now");
    const top = li.offsetTop - listing.offsetTop, h = listing.clientHeight;
    if (top < listing.scrollTop || top > listing.scrollTop + h - li.offsetHeight)
      listing.scrollTop = Math.max(0, top - h / 3);
  }

  function shown(value) {
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toPrecision(9).replace(/\.?0+$/, "");
    if (typeof value === "string") return JSON.stringify(value);
    const vals = typeof value.values === "string" ? JSON.stringify(value.values) : value.values.map(shown).join(" ");
    return `(${value.shape.join("×")}) ${vals}`;
  }

  function variables() {
    const rows = ZX.readVariables(page.machine.mem);
    const seen = new Set();
    for (const [name, value] of rows) {
      seen.add(name);
      const text = shown(value);
      let tr = page.values.get(name);
      if (!tr) {
        tr = document.createElement("tr");
        tr.id = "V-" + name.replace(/[$()]/g, (c) => ({"$": "S", "(": "A", ")": ""})[c]);
        tr.innerHTML = "<th scope='row'></th><td class='value'></td><td class='meaning'></td>";
        tr.children[0].textContent = name;
        tr.children[2].textContent = payload.meanings[name] || "";
        page.values.set(name, tr);
        varBody.appendChild(tr);
      }
      const cell = tr.children[1];
      if (cell.textContent !== text) { cell.textContent = text; tr.classList.add("changed"); }
      else tr.classList.remove("changed");
    }
    for (const [name, tr] of page.values) if (!seen.has(name)) { tr.remove(); page.values.delete(name); }
    gameVariables(new Map(rows));
    const order = rows.map(([name]) => name).join(" ");
    if (order !== page.order) {                   // the VARS area's order (a string assigned again moves last)
      for (const [name] of rows) varBody.appendChild(page.values.get(name));
      page.order = order;
    }
  }

  /** The game's own variables (program.py's: the count, the scores, the games, the dealer, the hands) first. */
  function gameVariables(values) {
    const body = document.querySelector("#gamevariables tbody");
    const want = facts.game_variables.filter((n) => values.has(n));
    if (body.dataset.names !== want.join(" ")) {
      body.textContent = "";
      for (const name of want) {
        const tr = document.createElement("tr");
        tr.innerHTML = "<th scope='row'></th><td class='value'></td><td class='meaning'></td>";
        tr.children[0].textContent = name;
        tr.children[2].textContent = (payload.meanings[name] || "").split(/[.;:(]/)[0];
        body.appendChild(tr);
      }
      body.dataset.names = want.join(" ");
    }
    want.forEach((name, i) => {
      const cell = body.children[i].children[1], text = shown(values.get(name));
      if (cell.textContent !== text) cell.textContent = text;
    });
  }

  function draw(all) {
    const m = page.machine, s = page.session;
    const phase = Math.floor(m.frames / facts.flash_frames) % 2 === 1;
    ZX.renderScreen(m.mem, m.border, phase, image.data);
    ctx.putImageData(image, 0, 0);
    highlight(m.ppc);
    $("status").textContent = page.paused ? "PAUSED: P goes on" : s.status();
    touchRow();
    translations(all);
    overlay();
    $("frame").textContent = `frame ${s.frames}`;
    $("ppc").textContent = `${m.ppc}:${m.subppc}`;
    const why = s.needsRealTime();
    $("speed").textContent = page.paused ? "paused" : hurrying(s) ? (why ? `turbo: no reading time (${why})`
      : "turbo: the program computes")
      : `real time${why ? ` (${why})` : s.keysDown() || m.wait() !== null ? " (a key)" : ""}`;
    if (all || s.frames - page.drawnFrames >= 5) { variables(); page.drawnFrames = s.frames; }
  }
  page.draw = draw;

  // ---------------------------------------------------------------- sound
  const audio = {ctx: null, next: 0, level: 0};
  function sound(edgesBefore) {
    const m = page.machine;
    if (!audio.ctx) { audio.level = m.x.ear(); return; }
    const rate = audio.ctx.sampleRate, n = Math.round(rate * ZX.FRAME_T / 3500000);
    const count = m.x.frame_edges(), at = new Uint32Array(m.x.memory.buffer, m.x.edges(), count);
    if (count === 0 && audio.level === 0 && edgesBefore === m.x.ear_edges()) return;
    const buffer = audio.ctx.createBuffer(1, n, rate);
    buffer.getChannelData(0).set(ZX.beeperSamples(at, audio.level, n));
    audio.level = m.x.ear();
    const src = audio.ctx.createBufferSource();
    src.buffer = buffer; src.connect(audio.ctx.destination);
    const now = audio.ctx.currentTime;
    if (audio.next < now || audio.next > now + 0.2) audio.next = now + 0.03;
    src.start(audio.next); audio.next += n / rate;
    page.samplesFed += n;
  }

  // ---------------------------------------------------------------- the pace
  /** Frames run ahead now: turbo while nobody is needed or reading; with No reading time, through its reading
   * too (window.py's _hurry). The machine runs the same frames either way: only the waits between them go. */
  function hurrying(s) { return (page.turbo || !page.readingTime) && s.mayHurry(page.readingTime); }
  function stepAhead(s) {
    const skipped = !page.readingTime && s.needsRealTime() !== null;
    s.step(); page.ran.turbo++;
    if (skipped) page.ran.skipped++;
  }
  let last = performance.now(), owed = 0;
  function tick(now) {
    const s = page.session;
    if (s && !page.paused) {
      const speed = s.replaying && !page.fast ? Number(page.replaySpeed) : 1;
      if (page.fast && s.replaying) {                 // a link's record: as fast as it goes, then the player's
        const until = performance.now() + 12;
        while (performance.now() < until && s.replaying) { s.step(); page.ran.turbo++; }
        if (!s.replaying) { page.fast = false; page.wasReplaying = false; if (!(s instanceof RzxSession)) showMoment(); }
        owed = 0;
      } else if (hurrying(s)) {
        const until = performance.now() + 12;
        while (performance.now() < until && hurrying(s)) stepAhead(s);
        owed = 0;
      } else {
        owed = Math.min(owed + (now - last) * 0.05 * speed, 10 * speed);   // 50 frames a second (x4: 200)
        while (owed >= 1) {
          const before = page.machine.x.ear_edges();
          s.step(); page.ran.real++; owed -= 1;
          sound(before);
          if (page.wasReplaying && !s.replaying) { page.wasReplaying = false; if (!(s instanceof RzxSession)) showMoment(); }
          if (page.session !== s) break;
          if (hurrying(s)) break;
        }
      }
      draw(false);
    }
    last = now;
    requestAnimationFrame(tick);
  }

  // ---------------------------------------------------------------- keys
  const NAMED = {Enter: "return", " ": "space", Backspace: "backspace", Escape: "escape", ArrowLeft: "left",
    ArrowRight: "right", ArrowUp: "up", ArrowDown: "down", CapsLock: "caps lock"};
  const CODES = {ShiftLeft: "left shift", ShiftRight: "right shift", ControlLeft: "left ctrl",
    ControlRight: "right ctrl", AltLeft: "left alt", AltRight: "right alt"};
  /** The host key as pygame names it (keymap.py's HOST_KEYS are in those names). */
  function hostName(ev) {
    if (CODES[ev.code]) return CODES[ev.code];
    if (/^Numpad[0-9]$/.test(ev.code)) return `[${ev.code.slice(6)}]`;
    if (/^Digit[0-9]$/.test(ev.code)) return ev.code.slice(5);          // Shift+1 is CAPS SHIFT+1, not "!"
    if (/^Key[A-Z]$/.test(ev.code)) return ev.code.slice(3).toLowerCase();
    if (NAMED[ev.key]) return NAMED[ev.key];
    return ev.key.length === 1 ? ev.key : null;
  }
  function togglePause() {
    page.paused = !page.paused;
    page.userPaused = page.paused;
    $("pause").setAttribute("aria-pressed", String(page.paused));
    if (page.session) draw(false);
  }
  page.togglePause = togglePause;
  canvas.addEventListener("keydown", (ev) => {
    const s = page.session;
    if (!s) return;
    if (ev.key === "F1") { page.help = !page.help; $("help").hidden = !page.help; ev.preventDefault(); return; }
    const w = page.machine.wait();
    if (ev.key === "Pause" || (ev.code === "KeyP" && w !== "input" && w !== "editor" && !ev.repeat)) {
      togglePause(); ev.preventDefault(); return;
    }
    if (ev.key === "Tab") return;                                    // the keyboard can leave the screen
    if (page.paused) { ev.preventDefault(); return; }                // paused: no key reaches the game
    const name = hostName(ev);
    if (name && facts.host_keys[name]) { s.held.down(name, s.frames); ev.preventDefault(); }
  });
  canvas.addEventListener("keyup", (ev) => {
    const s = page.session, name = hostName(ev);
    if (s && name) s.held.up(name, s.frames);
  });
  canvas.addEventListener("blur", () => page.session && page.session.held.clear());
  canvas.addEventListener("click", () => canvas.focus());
  canvas.addEventListener("focus", overlay);
  canvas.addEventListener("blur", overlay);
  $("overlay").addEventListener("click", () => { if (page.userPaused) togglePause(); canvas.focus(); overlay(); });

  /** Over the screen: PAUSED (the person's pause), or where the keyboard is not the game's, "click here". */
  function overlay() {
    const o = $("overlay");
    const text = page.userPaused && page.paused ? "PAUSED — P, Pause or a click here goes on"
      : document.activeElement !== canvas ? "Click here to type (or tap the keys below)" : "";
    if (o.textContent !== text) o.textContent = text;
    o.hidden = text === "";
  }
  page.overlay = overlay;

  // ---------------------------------------------------------------- touch: the keys the program reads now
  /** The labels of the touch keys for the wait now (waits.py's touch_keys); null while the program runs. */
  function touchLabels() {
    const w = page.machine.wait();
    if (w === null) return null;
    return facts.touch_keys[String(page.machine.ppc)] || facts.touch_by_kind[w] || [];
  }
  page.touchLabels = touchLabels;
  function touchRow() {
    const labels = touchLabels();
    if (labels === null) return;                      // running: the last wait's keys stay under the thumb
    const key = labels.join(" ");
    if (key === page.touchRow) return;
    page.touchRow = key;
    const row = $("touchkeys");
    row.textContent = "";
    for (const label of labels) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = label; b.dataset.key = label;
      b.setAttribute("aria-label", label === "ANY KEY" ? "any key" : `Spectrum key ${label}`);
      row.appendChild(b);
    }
  }
  function touchDown(b) {
    const s = page.session;
    if (!s || page.paused) return;
    s.touch.down(b.dataset.key, s.frames); b.classList.add("down");
  }
  function touchUp(b) {
    const s = page.session;
    b.classList.remove("down");
    if (s) s.touch.up(b.dataset.key, s.frames);
  }
  const touchkeys = $("touchkeys");
  touchkeys.addEventListener("pointerdown", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    ev.preventDefault();                              // the focus stays on the screen
    touchDown(b);
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave", "pointerout"]) {
    touchkeys.addEventListener(type, (ev) => {
      const b = ev.target.closest("button");
      if (b && b.classList.contains("down")) { touchUp(b); canvas.focus({preventScroll: true}); }
    });
  }
  touchkeys.addEventListener("click", (ev) => {       // Enter or Space on a focused key (detail 0): a tap
    const b = ev.target.closest("button");
    if (b && ev.detail === 0) { touchDown(b); touchUp(b); }
  });
  touchkeys.addEventListener("contextmenu", (ev) => ev.preventDefault());

  // ---------------------------------------------------------------- the screen in English
  function translations(all) {
    const s = page.session, m = page.machine;
    const w = m.wait();
    if (!all && s.frames - page.translated.frame < 10 && !(w !== null && page.translated.frame !== s.frames
                                                             && s.frames - page.translated.frame >= 2)) return;
    page.translated.frame = s.frames;
    const texts = payload.texts[page.lang] || [];
    $("legend").textContent = texts.length ? facts.rank_legend : "The English tape: the screen is in English.";
    const found = texts.length ? ZX.findTexts(ZX.screenRows(m.mem, facts), texts) : [];
    const key = found.map((t) => t[0]).join("|");
    const news = [];
    if (key !== page.translated.key) {
      const before = new Set((page.translated.key || "").split("|"));
      const ul = $("translations");
      ul.textContent = "";
      for (const [ru, en] of found) {
        const li = document.createElement("li");
        const r = document.createElement("span");
        r.className = "ru"; r.lang = "ru"; r.textContent = `«${ru.split(/\s+/).join(" ")}» `;
        li.appendChild(r); li.appendChild(document.createTextNode(en));
        ul.appendChild(li);
        if (!before.has(ru)) news.push(en);
      }
      page.translated.key = key;
    }
    const waitKey = w === null ? "" : `${m.ppc}/${s.caller()}`;
    if (waitKey !== page.waitKey && w !== null) news.push(s.status().replace(/^REPLAY[^|]*\| /, ""));
    if (waitKey !== "" || w === null) page.waitKey = waitKey;
    if (news.length) { page.said = news.join(". "); $("said").textContent = page.said; }
  }
  page.translations = () => Array.from($("translations").children, (li) => li.textContent);

  // ---------------------------------------------------------------- a link to a moment
  function showMoment() {
    const s = page.session, m = page.machine;
    page.moment = {frame: s.frames, hash: ZX.momentHash(m.mem, m.border, facts.hash_chars)};
    $("momentinfo").textContent = `frame ${page.moment.frame} · hash ${page.moment.hash}`;
    return page.moment;
  }
  page.showMoment = showMoment;
  /** The address of this moment: the tape, the seed and the keys so far (link.py's fields). */
  page.linkHere = async () => {
    const s = page.session;
    if (page.fromSlot) throw new Error("a game loaded from a slot has no key record from its start: no link");
    const record = s.keyRecord();
    const moment = showMoment();
    const fields = new URLSearchParams({lang: page.lang, seed: String(s.seed)});
    if (record.frames > 0) fields.set("keys", await ZX.encodeKeys(record));
    const url = location.href.replace(/#.*$/, "") + "#" + fields.toString();
    history.replaceState(null, "", url);
    $("link").value = url; $("link").hidden = false;
    return {url, moment};
  };
  $("linkbutton").addEventListener("click", () => {
    $("linkproblem").textContent = "";
    page.linkHere().catch((e) => { $("linkproblem").textContent = e.message; });
  });
  // ---------------------------------------------------------------- a key record opened from a file
  page.replaySpeed = "max";
  $("replayspeed").addEventListener("change", (ev) => {
    page.replaySpeed = ev.target.value;
    if (page.session && page.session.replaying) page.fast = page.replaySpeed === "max";
  });
  /** A play --record file's text as a record of one of the page's tapes, or an Error naming *name* in one line. */
  function readRecord(name, text) {
    let data;
    try { data = JSON.parse(text); } catch (e) { throw new Error(`${name}: damaged, not JSON (${e.message.split("\n")[0]})`); }
    if (!data || data.format !== "cribbage-zx play keys") throw new Error(`${name}: not a key record (no "format": "cribbage-zx play keys")`);
    if (data.version !== 1) throw new Error(`${name}: version ${JSON.stringify(data.version)}, this page reads 1`);
    const lang = Object.keys(payload.tape_sha256).find((l) => payload.tape_sha256[l] === data.tape_sha256);
    if (!lang) throw new Error(`${name}: a record of another tape (SHA-256 ${String(data.tape_sha256).slice(0, 12)}…), not of this page's ${Object.keys(tapes).join(" or ")}`);
    if (!Number.isInteger(data.seed) || data.seed < 0 || data.seed > 65535) throw new Error(`${name}: seed ${JSON.stringify(data.seed)} is not 0..65535`);
    if (!Number.isInteger(data.frames) || data.frames < 0 || !Array.isArray(data.keys)) throw new Error(`${name}: damaged (no frames or keys)`);
    let last = -1;
    for (const [n, entry] of data.keys.entries()) {
      const ok = Array.isArray(entry) && Number.isInteger(entry[0]) && Array.isArray(entry[1]);
      if (!ok || entry[0] <= last) throw new Error(`${name}: damaged: keys[${n}] is not a later [frame, [keys]]`);
      for (const k of entry[1]) if (!facts.key_positions[k]) throw new Error(`${name}: keys[${n}]: ${JSON.stringify(k)} is not a 48K key`);
      last = entry[0];
    }
    return {lang, record: {seed: data.seed, frames: data.frames, keys: data.keys}};
  }
  page.readRecord = readRecord;
  // ---------------------------------------------------------------- a session in one file (harness/play/saved.py)
  const SESSION_FORMAT = "cribbage-zx page session";
  /** The session now as the file's text: the .z80, the keys from the first question, the tape and seed. */
  page.sessionText = () => {
    const s = page.session;
    if (page.fromSlot) throw new Error("a game loaded from a slot has no keys from its start: load a session file instead");
    const r = s.keyRecord();
    return JSON.stringify({format: SESSION_FORMAT, version: 1, tape_sha256: payload.tape_sha256[page.lang],
      lang: page.lang, seed: r.seed, frames: r.frames, keys: r.keys, z80: toBase64(page.machine.z80())});
  };
  $("savesession").addEventListener("click", () => {
    let text;
    try { text = page.sessionText(); } catch (e) { $("linkproblem").textContent = e.message; return; }
    const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
    const a = document.createElement("a");
    a.href = url; a.download = `cribbage-session-frame${page.session.frames}.json`;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  /** A saved session's text back in the page, exactly where it was (its machine, its keys, its frame). */
  async function openSession(name, data) {
    const lang = Object.keys(payload.tape_sha256).find((l) => payload.tape_sha256[l] === data.tape_sha256);
    if (!lang) throw new Error(`${name}: a session of another tape (SHA-256 ${String(data.tape_sha256).slice(0, 12)}…)`);
    if (data.version !== 1) throw new Error(`${name}: version ${JSON.stringify(data.version)}, this page reads 1`);
    let z80;
    try { z80 = ZX.decodeBase64(String(data.z80)); } catch (e) { throw new Error(`${name}: damaged: its .z80 is not base64`); }
    const m = await ZX.Machine.create(wasm, rom, facts.key_positions);
    try { m.loadZ80(z80); } catch (e) { throw new Error(`${name}: damaged: ${e.message}`); }
    const s = new ZX.Session(m, facts, data.seed, null);
    m.x.watch_statement(facts.at_message[0], facts.at_message[1]);
    s.lastMessages = m.x.watched();
    s.frames = data.frames; s.changes = data.keys.map(([f, k]) => [f, [...k]]);
    page.machine = m; page.session = s; page.lang = lang; page.highlighted = null; page.values = new Map();
    varBody.textContent = ""; page.fromSlot = false; page.fast = false; page.moment = null;
    $("tape").value = lang; $("seed").value = String(data.seed);
    listingFor(lang); page.translated = {frame: -1, key: null}; page.waitKey = "";
    page.paused = page.userPaused = false;
    draw(true);
    showMoment();
    return true;
  }
  // ---------------------------------------------------------------- an RZX (play --record-rzx, regress --rzx)
  /** The tape whose BASIC program the snapshot holds (PROG on, the tape's program block), or null. */
  function rzxTape(ram) {
    const at = (a) => ram[a - 0x4000] | ram[a - 0x4000 + 1] << 8;
    const prog = at(23635);
    for (const lang of Object.keys(tapes)) {
      const blocks = ZX.readTap(tapes[lang]);
      const header = blocks.find((b) => b.flag === 0 && b.data[0] === 0);
      const data = blocks[blocks.indexOf(header) + 1];
      if (!header || !data) continue;
      const length = header.data[15] | header.data[16] << 8;       // param2: the program without its variables
      const program = data.data.subarray(0, length);
      if (program.every((b, i) => ram[prog - 0x4000 + i] === b)) return lang;
    }
    return null;
  }
  /** An RZX replayed on its own machine (no traps, as recorded), then handed to the player on one with them. */
  class RzxSession extends ZX.Session {
    constructor(machine, rzx) {
      super(machine, facts, null, null);
      this.r = new ZX.RzxReplay(machine, rzx);
      this.rzxFrames = this.r.frames;
    }
    get replaying() { return this.r.frame < this.rzxFrames; }
    step(n = 1) {
      for (let i = 0; i < n && this.replaying; i++) { this.r.play(1); this.frames++; }
      if (!this.replaying && page.session === this) handOver();
    }
    keysDown() { return false; }
    needsRealTime() { return null; }
    mayHurry() { return false; }
    status() { return `RZX replay: frame ${this.frames} of ${this.rzxFrames} (the keys are yours when it ends)`; }
  }
  /** The RZX's end: its machine as a .z80 into a machine with the page's traps, the keyboard the person's. */
  async function handOverAsync() {
    const old = page.session, z = page.machine.z80();
    page.rzxEnd = toBase64(z);                            // the machine as the recording ended (for the tests)
    const m = await ZX.Machine.create(wasm, rom, facts.key_positions);
    m.loadZ80(z);
    const s = new ZX.Session(m, facts, null, null);
    m.x.watch_statement(facts.at_message[0], facts.at_message[1]);
    s.lastMessages = m.x.watched(); s.frames = old.frames;
    page.machine = m; page.session = s; page.fromSlot = true; page.fast = false;
    showMoment();
    page.rzxProblems = old.r.problems;
    if (old.r.problems.length) $("linkproblem").textContent =
      `the RZX did not play as recorded at ${old.r.problems.length} frame(s), the first ${old.r.problems[0][0]}: ${old.r.problems[0][1]}`;
  }
  function handOver() { page.handedOver = handOverAsync(); }
  /** What an RZX's creator data names (records/frames.py's rzx_tag: play --record-rzx's session, game null, or
   * regress --rzx's game), or null where it names nothing of ours (older, or another tool's data). */
  function rzxNamed(custom) {
    let named = null;
    try { named = custom ? JSON.parse(custom) : null; } catch (e) { return null; }
    return named && typeof named === "object" && "game" in named ? named : null;
  }
  /** Open an RZX's bytes: checked against the page's tapes (the program in its snapshot, and the tape's SHA-256
   * its creator data names), then replayed. */
  async function openRzx(name, bytes) {
    $("linkproblem").textContent = "";
    let rzx, snap;
    try { rzx = await ZX.readRzx(bytes); snap = ZX.readZ80(rzx.snapshot); }
    catch (e) { $("linkproblem").textContent = `${name}: damaged: ${e.message}`; return false; }
    const lang = rzxTape(snap.ram);
    if (lang === null) { $("linkproblem").textContent = `${name}: a recording of another program, not of this page's tapes`; return false; }
    const named = rzxNamed(rzx.custom), sha = payload.tape_sha256[lang];
    if (named && typeof named.tape_sha256 === "string" && named.tape_sha256 !== sha) {
      $("linkproblem").textContent = `${name}: a recording on the tape of SHA-256 ${named.tape_sha256.slice(0, 12)}…, ` +
        `not on this page's ${lang} tape (${sha.slice(0, 12)}…)`;
      return false;
    }
    const m = await ZX.Machine.create(wasm, rom, facts.key_positions);
    const s = new RzxSession(m, rzx);
    page.machine = m; page.session = s; page.lang = lang; page.highlighted = null; page.values = new Map();
    varBody.textContent = ""; page.fromSlot = true; page.moment = null; page.wasReplaying = true;
    page.fast = page.replaySpeed === "max"; page.paused = page.userPaused = false;
    $("tape").value = lang; listingFor(lang); page.translated = {frame: -1, key: null}; page.waitKey = "";
    if (named && Number.isInteger(named.seed)) $("seed").value = String(named.seed);      // the session's seed
    draw(true);
    canvas.focus({preventScroll: true});
    return true;
  }
  page.openRzx = openRzx;
  async function openFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (String.fromCharCode(...bytes.subarray(0, 4)) === "RZX!") return openRzx(file.name, bytes);
    return openRecord(file.name, new TextDecoder().decode(bytes));
  }

  /** Open a record's (or a saved session's) text: the game from its tape and seed, replayed at the chosen speed. */
  async function openRecord(name, text) {
    $("linkproblem").textContent = "";
    let opened;
    try {
      const data = JSON.parse(text);
      if (data && data.format === SESSION_FORMAT) { await openSession(name, data); canvas.focus({preventScroll: true}); return true; }
    } catch (e) {
      if (!(e instanceof SyntaxError)) { $("linkproblem").textContent = e.message; return false; }
    }
    try { opened = readRecord(name, text); } catch (e) { $("linkproblem").textContent = e.message; return false; }
    page.paused = page.userPaused = false;
    await start(opened.lang, opened.record.seed, opened.record);
    page.fast = page.replaySpeed === "max";
    page.wasReplaying = true;
    canvas.focus({preventScroll: true});
    return true;
  }
  page.openRecord = openRecord;
  $("open").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (file) await openFile(file);
    ev.target.value = "";
  });
  document.addEventListener("dragover", (ev) => { ev.preventDefault(); document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", async (ev) => {
    ev.preventDefault(); document.body.classList.remove("dragging");
    const file = ev.dataTransfer && ev.dataTransfer.files[0];
    if (file) await openFile(file);
  });
  /** Run to the program's next wait for a key (one it was not at already), then pause there. */
  page.toNextWait = () => {
    const s = page.session, m = page.machine;
    let left = m.wait() !== null ? false : true, n = 0;
    const start = `${m.ppc}/${s.caller()}`;
    for (; n < 60000; n++) {
      s.step();
      const w = m.wait();
      if (w === null || s.keysDown() || `${m.ppc}/${s.caller()}` !== start) left = true;
      if (left && w !== null && !s.keysDown() && s.frames > 0) {
        // the same kind of wait at two frame ends, as runUntilWait has it
        s.step();
        if (m.wait() === w) break;
      }
    }
    if (!page.paused) togglePause();
    draw(true);
    if (page.wasReplaying && !s.replaying) { page.wasReplaying = false; showMoment(); }
    return {frame: s.frames, wait: m.wait(), ppc: m.ppc};
  };
  $("nextwait").addEventListener("click", () => page.toNextWait());

  /** Open what the address's fragment says: lang, seed, keys (harness/web/link.py). */
  async function openLink(fragment) {
    const f = new URLSearchParams(fragment.replace(/^#/, ""));
    $("linkproblem").textContent = "";
    const lang = f.get("lang") || "ru";
    if (!tapes[lang]) throw new Error(`the link's lang=${lang}: this page has the tapes ${Object.keys(tapes).join(", ")}`);
    const seedText = f.get("seed");
    if (seedText !== null && !/^\d+$/.test(seedText)) throw new Error(`the link's seed=${seedText} is not a number 0-65535`);
    const seed = seedText === null ? null : Number(seedText) % 65536;
    if (f.has("keys") && seed === null) throw new Error("the link's keys= needs its seed=");
    const record = f.has("keys") ? await ZX.decodeKeys(f.get("keys"), facts.key_positions) : null;
    if (record) record.seed = seed;
    page.paused = page.userPaused = false;                // a link opens a running game
    $("pause").setAttribute("aria-pressed", "false");
    await start(lang, seed === null ? seedWanted() : seed, record);
    if (!record) showMoment();
    return true;
  }
  page.openLink = openLink;
  window.addEventListener("hashchange", () => {
    openLink(location.hash).catch((e) => { $("linkproblem").textContent = e.message; });
  });

  // ---------------------------------------------------------------- controls
  function seedWanted() {
    const v = $("seed").value.trim();
    if (v !== "" && /^\d+$/.test(v)) return Number(v) % 65536;
    const drawn = Math.floor(Math.random() * 65536);
    $("seed").value = String(drawn);
    return drawn;
  }
  $("restart").addEventListener("click", () => { start($("tape").value, seedWanted()).then(() => canvas.focus()); });
  $("seed").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); $("restart").click(); } });
  $("turbo").addEventListener("change", (ev) => { page.turbo = ev.target.checked; });
  $("noreading").addEventListener("change", (ev) => { page.readingTime = !ev.target.checked; });
  $("pause").addEventListener("click", togglePause);
  page.audioState = () => audio.ctx ? audio.ctx.state : "none";
  page.samplesFed = 0;
  $("sound").addEventListener("change", (ev) => {
    if (ev.target.checked && !audio.ctx) audio.ctx = new AudioContext();
    else if (!ev.target.checked && audio.ctx) { audio.ctx.close(); audio.ctx = null; }
  });

  // ---------------------------------------------------------------- saves
  const SAVE_KEY = (slot) => `cribbage-zx play.html save ${slot}`;
  function toBase64(bytes) {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }
  /** Save the machine in the page's storage (slot 1-9) with its seed and tape; returns the .z80 bytes. */
  page.save = (slot) => {
    const z80 = page.machine.z80();
    try {
      localStorage.setItem(SAVE_KEY(slot), JSON.stringify({z80: toBase64(z80), seed: page.session.seed,
        lang: page.lang, when: new Date().toISOString()}));
      $("saved").textContent = `saved in slot ${slot}`;
    } catch (e) {
      $("saved").textContent = `not saved: the page's storage refused it (${e.name})`;
    }
    return z80;
  };
  /** Load slot 1-9: the machine as saved, the keyboard the person's. */
  page.load = async (slot) => {
    const text = localStorage.getItem(SAVE_KEY(slot));
    if (text === null) { $("saved").textContent = `slot ${slot} is empty`; return false; }
    const saved = JSON.parse(text);
    const m = await ZX.Machine.create(wasm, rom, facts.key_positions);
    m.loadZ80(ZX.decodeBase64(saved.z80));
    page.machine = m; page.session = new ZX.Session(m, facts, saved.seed, null);
    m.x.watch_statement(facts.at_message[0], facts.at_message[1]);
    page.session.lastMessages = m.x.watched();
    page.lang = saved.lang; page.highlighted = null; page.values = new Map(); varBody.textContent = "";
    page.fromSlot = true; page.fast = false; listingFor(page.lang); page.translated = {frame: -1, key: null};
    $("saved").textContent = `loaded slot ${slot} (saved ${saved.when})`;
    draw(true);
    return true;
  };
  $("save").addEventListener("click", () => page.save(Number($("slot").value)));
  $("load").addEventListener("click", () => page.load(Number($("slot").value)).then(() => canvas.focus()));
  $("download").addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([page.machine.z80()], {type: "application/octet-stream"}));
    const a = document.createElement("a");
    a.href = url; a.download = `cribbage-frame${page.session.frames}.z80`;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  page.z80Base64 = () => toBase64(page.machine.z80());

  // ---------------------------------------------------------------- for tests and the benchmark
  /** The canvas's pixels (320x256 RGBA) in base64. */
  page.canvasRGBA = () => {
    const data = ctx.getImageData(0, 0, 320, 256).data;
    let bin = "";
    for (let i = 0; i < data.length; i += 0x8000) bin += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return btoa(bin);
  };
  page.ramBase64 = () => {
    let bin = "";
    const mem = page.machine.mem;
    for (let i = 0; i < mem.length; i += 0x8000) bin += String.fromCharCode(...mem.subarray(i, i + 0x8000));
    return btoa(bin);
  };
  /** Replay *record* (a play --record key record) and, at each checkpoint frame, the RAM, the canvas and the
   * highlighted line; the pace loop is stopped meanwhile (paused), so frames are the record's own. */
  page.replay = async (record, checkpoints, lang) => {
    page.paused = true;
    await start(lang || "ru", record.seed, record);
    const out = [];
    for (const frame of checkpoints) {
      page.session.step(frame - page.session.frames);
      draw(true);
      out.push({frame, ram: page.ramBase64(), canvas: page.canvasRGBA(), ppc: page.machine.ppc,
        highlighted: page.highlighted, border: page.machine.border, wait: page.machine.wait(),
        status: page.session.status(), real_time: page.session.needsRealTime()});
    }
    return out;
  };
  /** For the benchmark: the record's game loaded (not timed), then stepTimed(frames) runs it at full speed
   * and returns its frames a second of wall time (the benchmark reads the CPU time around the call). */
  page.prepareReplay = async (record) => {
    page.paused = true;
    await start("ru", record.seed, record);
    return page.session.frames;
  };
  page.stepTimed = (frames) => {
    const t0 = performance.now();
    page.session.step(frames);
    const fps = frames / ((performance.now() - t0) / 1000);
    draw(true);
    return fps;
  };

  // every control hands the keyboard back to the game's screen (the seed box keeps it while typed in)
  for (const el of document.querySelectorAll("#controls button, #moment button, #replaying button"))
    el.addEventListener("click", () => canvas.focus({preventScroll: true}));
  for (const el of document.querySelectorAll("#controls select, #controls input[type=checkbox], #replaying select"))
    el.addEventListener("change", () => canvas.focus({preventScroll: true}));

  $("seed").value = "";
  const fromLink = /(^|[#&])(lang|seed|keys)=/.test(location.hash);
  page.ready = (fromLink ? openLink(location.hash).catch((e) => {
    $("linkproblem").textContent = e.message;
    return start("ru", seedWanted());
  }) : start("ru", seedWanted())).then(() => {
    canvas.focus({preventScroll: true});
    page.titleAt = performance.now();           // ms from opening the page to the title on the canvas
    requestAnimationFrame(tick);
    return true;
  });
})();

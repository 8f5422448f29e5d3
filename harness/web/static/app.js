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

  const page = {session: null, machine: null, lang: "ru", turbo: true, paused: false, help: false,
    highlighted: null, drawnFrames: 0, ran: {turbo: 0, real: 0}, titleAt: null};
  window.zxPage = page;

  async function start(lang, seed, record) {
    const m = await ZX.Machine.create(wasm, rom, facts.key_positions);
    const s = new ZX.Session(m, facts, seed, record || null);
    s.start(tapes[lang]);
    const marked = page.highlighted !== null && document.getElementById("L" + page.highlighted);
    if (marked) marked.classList.remove("now");   // the last game's line: one line is marked, never two
    page.machine = m; page.session = s; page.lang = lang; page.highlighted = null;
    $("seed").value = seed === null || seed === undefined ? "" : String(seed);
    $("tape").value = lang;
    page.values = new Map();
    varBody.textContent = "";                     // the last game's rows
    draw(true);
    return s;
  }
  page.start = start;

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
    const order = rows.map(([name]) => name).join(" ");
    if (order !== page.order) {                   // the VARS area's order (a string assigned again moves last)
      for (const [name] of rows) varBody.appendChild(page.values.get(name));
      page.order = order;
    }
  }

  function draw(all) {
    const m = page.machine, s = page.session;
    const phase = Math.floor(m.frames / facts.flash_frames) % 2 === 1;
    ZX.renderScreen(m.mem, m.border, phase, image.data);
    ctx.putImageData(image, 0, 0);
    highlight(m.ppc);
    $("status").textContent = page.paused ? "PAUSED: P goes on" : s.status();
    $("frame").textContent = `frame ${s.frames}`;
    $("ppc").textContent = `${m.ppc}:${m.subppc}`;
    const why = s.needsRealTime();
    $("speed").textContent = page.paused ? "paused" : page.turbo && s.mayHurry() ? "turbo: the program computes"
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
    const buffer = audio.ctx.createBuffer(1, n, rate), data = buffer.getChannelData(0);
    let level = audio.level, e = 0;
    for (let i = 0; i < n; i++) {
      const t = i * ZX.FRAME_T / n;
      while (e < count && at[e] <= t) { level ^= 1; e++; }
      data[i] = level ? 0.25 : -0.25;
    }
    audio.level = m.x.ear();
    const src = audio.ctx.createBufferSource();
    src.buffer = buffer; src.connect(audio.ctx.destination);
    const now = audio.ctx.currentTime;
    if (audio.next < now || audio.next > now + 0.2) audio.next = now + 0.03;
    src.start(audio.next); audio.next += n / rate;
  }

  // ---------------------------------------------------------------- the pace
  let last = performance.now(), owed = 0;
  function tick(now) {
    const s = page.session;
    if (s && !page.paused) {
      if (page.turbo && s.mayHurry()) {
        const until = performance.now() + 12;
        while (performance.now() < until && s.mayHurry()) { s.step(); page.ran.turbo++; }
        owed = 0;
      } else {
        owed = Math.min(owed + (now - last) * 0.05, 10);        // 50 frames a second, at most 10 behind
        while (owed >= 1) {
          const before = page.machine.x.ear_edges();
          s.step(); page.ran.real++; owed -= 1;
          sound(before);
          if (page.turbo && s.mayHurry()) break;
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
    $("pause").setAttribute("aria-pressed", String(page.paused));
    if (page.session) draw(false);
  }
  canvas.addEventListener("keydown", (ev) => {
    const s = page.session;
    if (!s) return;
    if (ev.key === "F1") { page.help = !page.help; $("help").hidden = !page.help; ev.preventDefault(); return; }
    const w = page.machine.wait();
    if (ev.key === "Pause" || (ev.code === "KeyP" && w !== "input" && w !== "editor" && !ev.repeat)) {
      togglePause(); ev.preventDefault(); return;
    }
    if (ev.key === "Tab") return;                                    // the keyboard can leave the screen
    const name = hostName(ev);
    if (name && facts.host_keys[name]) { s.held.down(name, s.frames); ev.preventDefault(); }
  });
  canvas.addEventListener("keyup", (ev) => {
    const s = page.session, name = hostName(ev);
    if (s && name) s.held.up(name, s.frames);
  });
  canvas.addEventListener("blur", () => page.session && page.session.held.clear());
  canvas.addEventListener("click", () => canvas.focus());

  // ---------------------------------------------------------------- controls
  function seedWanted() {
    const v = $("seed").value.trim();
    if (v !== "" && /^\d+$/.test(v)) return Number(v) % 65536;
    const drawn = Math.floor(Math.random() * 65536);
    $("seed").value = String(drawn);
    return drawn;
  }
  $("restart").addEventListener("click", () => { start($("tape").value, seedWanted()).then(() => canvas.focus()); });
  $("turbo").addEventListener("change", (ev) => { page.turbo = ev.target.checked; });
  $("pause").addEventListener("click", togglePause);
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

  $("seed").value = "";
  page.ready = start("ru", seedWanted()).then(() => {
    page.titleAt = performance.now();           // ms from opening the page to the title on the canvas
    requestAnimationFrame(tick);
    return true;
  });
})();

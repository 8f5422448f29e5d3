// Watch mode on a game page of report.html: the game's RZX replayed on the WebAssembly core
// (spectrum.js's RzxReplay) and each judgement of the game's stored records shown beside the screen once
// the replay reaches its action's frame (harness/edition/report.py's watch_entries made them; nothing is
// judged here). The replay goes forward only; a seek backward puts back the nearest checkpoint (the
// registers and the 48K RAM, kept every CHECKPOINT frames on the way) and plays on from it. The first frame
// that does not replay as recorded stops the replay for good, with words over the screen and no judgement
// beside it. window.zxWatch is for the tests.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const P = JSON.parse($("watch-payload").textContent);
  const wasm = ZX.decodeBase64(P.wasm), rom = ZX.decodeBase64(P.rom), rzxBytes = ZX.decodeBase64(P.rzx);
  const canvas = $("watch-screen"), ctx = canvas.getContext("2d", {willReadFrequently: true}), image = ctx.createImageData(320, 256);
  const byFrame = [...P.entries].sort((a, b) => a.frame - b.frame || a.n - b.n);
  const CHECKPOINT = 500;
  // desync: the first frame that did not replay as recorded ({frame, what}); the replay stops there
  const w = {frame: 0, frames: 0, shownAt: {}, problems: [], running: false, desync: null};
  window.zxWatch = w;
  let rzx = null, replay = null, next = 0, shownCount = -1, checkpoints = [];

  function toBase64(bytes) {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }
  const rules = () => $("watch-rules").value;
  const ofRules = () => byFrame.filter((e) => e.rules === rules());
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function entryItem(e, jump) {
    const li = document.createElement("li");
    const unexplained = e.differences.some((d) => !d.deviation);
    li.className = unexplained ? "unexplained" : e.differences.length ? "documented" : "agrees";
    li.dataset.n = e.n;
    const head = document.createElement("div");
    const b = document.createElement("b");
    b.textContent = e.judged;
    head.append(b, ` — ${e.what}, frame ${e.frame}`);
    if (jump) {
      const a = document.createElement("a");
      a.href = `#e${e.at}`; a.className = "jump"; a.textContent = "watch from here";
      a.addEventListener("click", (ev) => { ev.preventDefault(); seek(e.frame); });
      head.append(" ", a);
    }
    li.appendChild(head);
    if (e.action) { const a = document.createElement("div"); a.className = "action"; a.textContent = e.action; li.appendChild(a); }
    const lines = [];
    if (e.pegged.length) lines.push(["the program pegged", e.pegged.join("; ")]);
    if (e.expected.length) lines.push(["the engine", e.expected.join("; ")]);
    if (!e.pegged.length && !e.expected.length) lines.push(["", plural(e.checks, "check")]);
    for (const [label, text] of lines) {
      const d = document.createElement("div");
      d.textContent = label ? `${label}: ${text}` : text;
      li.appendChild(d);
    }
    for (const d of e.differences) {
      const div = document.createElement("div");
      div.className = d.deviation ? "diffnote documented" : "diffnote";
      const badge = document.createElement(d.deviation ? "a" : "b");
      badge.textContent = d.deviation || "UNEXPLAINED";
      if (d.deviation) {
        badge.className = "badge dev"; badge.href = `${P.edition}/deviations.html#${d.deviation}`;
        if (d.sentence) badge.title = d.sentence;
      }
      div.append(badge, " " + (d.sentence ? d.sentence + " — " : "") + d.text);
      li.appendChild(div);
    }
    if (!e.differences.length) {
      const d = document.createElement("div");
      d.className = "agree"; d.textContent = "no difference";
      li.appendChild(d);
    }
    return li;
  }

  /** The judgements due by now (byFrame[0..next)), noted in shownAt when they first become due. */
  function noteDue() {
    while (next < byFrame.length && byFrame[next].frame <= replay.frame) {
      const e = byFrame[next++];
      if (!(e.n in w.shownAt)) w.shownAt[e.n] = replay.frame;
    }
  }

  /** The panel for the replay's frame and the chosen rules: beside the screen the judgements of the latest
   * action due, in the log every one due so far (the latest first), each a jump back to its frame. */
  function render() {
    const list = $("watch-now"), log = $("watch-log");
    list.textContent = ""; log.textContent = "";
    shownCount = next;
    const due = byFrame.slice(0, next).filter((e) => e.rules === rules());
    const latest = due.length ? due[due.length - 1].frame : -1;
    if (!w.desync) for (const e of due) if (e.frame === latest) list.appendChild(entryItem(e, false));
    for (let i = due.length - 1; i >= 0; i--) log.appendChild(entryItem(due[i], true));
    $("watch-count").textContent = `${due.length} of ${ofRules().length}`;
  }

  function desyncWords(d) {
    return `The replay stopped at RZX frame ${d.frame}: that frame of ${P.rzx_name} did not replay as recorded ` +
      `(${d.what}). From there the screen would not be the game's, so nothing more is played and no judgement ` +
      `is shown beside it.`;
  }

  /** Stop at the first frame that did not replay: the words over the screen, no judgement beside it. */
  function stopOnDesync() {
    const [frame, what] = replay.problems[0];
    w.desync = {frame, what};
    setRunning(false);
    const over = $("watch-desync");
    over.textContent = desyncWords(w.desync);
    over.hidden = false;
    canvas.classList.add("desynced");
    for (const b of document.querySelectorAll(".watch-controls .forward")) b.disabled = true;
    render();
  }

  function draw() {
    ZX.renderScreen(replay.m.mem, replay.m.border, Math.floor(replay.frame / P.flash_frames) % 2 === 1, image.data);
    ctx.putImageData(image, 0, 0);
    w.frame = replay.frame;
    if (shownCount !== next) render();
    const ahead = ofRules().find((e) => e.frame > replay.frame);
    $("watch-status").textContent = `frame ${replay.frame} of ${replay.frames}` +
      (w.desync ? " — stopped: " + desyncWords(w.desync) :
        replay.frame >= replay.frames ? " — the end of the recording" : ahead ? `; the next judgement at frame ${ahead.frame}` : "");
    const bar = $("watch-seek");
    if (document.activeElement !== bar || !bar.matches(":active")) bar.value = String(replay.frame);
  }

  // ---------------------------------------------------------------- playing and seeking
  function checkpoint() {
    const x = replay.m.x;
    x.save_registers();
    const regs = new Uint16Array(x.memory.buffer, x.registers(), 18);
    if (regs[17]) return;                          // a halted CPU is not put back exactly: no checkpoint here
    checkpoints.push({frame: replay.frame, regs: regs.slice(), ram: replay.m.mem.slice(0x4000), border: replay.m.border});
  }

  function putBack(cp) {
    const x = replay.m.x;
    new Uint16Array(x.memory.buffer, x.registers(), 18).set(cp.regs);
    x.load_registers();
    replay.m.mem.set(cp.ram, 0x4000);
    x.set_border(cp.border);
    replay.frame = cp.frame;
    replay.problems = [];
  }

  function step(n) {
    for (let i = 0; i < n && replay.frame < replay.frames && !w.desync; i++) {
      replay.play(1);
      if (replay.problems.length) { w.problems = replay.problems; stopOnDesync(); break; }
      if (replay.frame % CHECKPOINT === 0 && checkpoints[checkpoints.length - 1].frame < replay.frame) checkpoint();
      noteDue();
    }
    w.problems = replay.problems;
  }

  /** Put the replay at *frame* frames played: forward by playing, backward from the nearest checkpoint
   * (never past a desync: the replay stops there). */
  function seek(frame) {
    frame = Math.max(0, Math.min(Math.round(frame), replay.frames));
    if (frame < replay.frame) {
      let cp = checkpoints[0];
      for (const c of checkpoints) if (c.frame <= frame) cp = c;
      checkpoints = checkpoints.filter((c) => c.frame <= cp.frame);
      clearDesync();
      putBack(cp);
      next = byFrame.findIndex((e) => e.frame > replay.frame);
      if (next < 0) next = byFrame.length;
      for (const e of byFrame) if (e.frame > frame && e.n in w.shownAt) delete w.shownAt[e.n];
    }
    step(frame - replay.frame);
    draw();
    return replay.frame;
  }

  function clearDesync() {
    w.desync = null; w.problems = [];
    $("watch-desync").hidden = true; canvas.classList.remove("desynced");
    for (const b of document.querySelectorAll(".watch-controls .forward")) b.disabled = false;
  }

  async function restart() {
    const m = await ZX.Machine.create(wasm, rom, {});
    replay = new ZX.RzxReplay(m, rzx);
    w.frames = replay.frames;
    $("watch-seek").max = String(replay.frames);
    next = 0; shownCount = -1; w.shownAt = {}; checkpoints = [];
    clearDesync();
    checkpoint();
    noteDue();
    draw();
  }

  // ---------------------------------------------------------------- pacing
  let last = 0, owed = 0;
  function tick(now) {
    if (!w.running) return;
    const speed = $("watch-speed").value;
    if (speed === "full") {
      const until = performance.now() + 12;
      while (performance.now() < until && replay.frame < replay.frames && !w.desync) step(50);
    } else {
      owed += Math.min(now - last, 200) / 20 * Number(speed);
      const n = Math.floor(owed);
      owed -= n;
      step(n);
    }
    last = now;
    draw();
    if (replay.frame >= replay.frames || w.desync) setRunning(false);
    else requestAnimationFrame(tick);
  }
  function setRunning(on) {
    w.running = on;
    const b = $("watch-play");
    b.textContent = on ? "Pause" : "Play";
    b.setAttribute("aria-pressed", String(on));
    if (on) { last = performance.now(); owed = 0; requestAnimationFrame(tick); }
  }

  // ---------------------------------------------------------------- where to go
  const frameOf = {
    nextJudgement: () => ofRules().find((e) => e.frame > replay.frame)?.frame,
    prevJudgement: () => ofRules().filter((e) => e.frame < replay.frame).pop()?.frame,
    nextDifference: () => ofRules().find((e) => e.frame > replay.frame && e.differences.length)?.frame,
    prevDifference: () => ofRules().filter((e) => e.frame < replay.frame && e.differences.length).pop()?.frame,
  };
  function go(where) {
    setRunning(false);
    const f = frameOf[where]();
    if (f === undefined) { $("watch-status").textContent += where.endsWith("Difference") ? " — no difference that way" : " — no judgement that way"; return replay.frame; }
    return seek(f);
  }

  /** The frame of the game's event *n* (a row of the page's timeline, #eN): its judgements' frame, or for an
   * event with none the frame after it (as watch_entries counts). */
  function eventFrame(n) {
    const judged = byFrame.find((e) => e.at === n);
    if (judged) return judged.frame;
    const f = P.event_frames[n];
    return f === undefined ? undefined : Math.max(f, 0) + 1;
  }
  function jumpToHash() {
    const m = /^#e(\d+)$/.exec(location.hash);
    if (!m || !replay) return;
    const f = eventFrame(Number(m[1]));
    if (f === undefined) return;
    setRunning(false);
    seek(f);
    $("watch").scrollIntoView({block: "start"});
  }

  $("watch-play").addEventListener("click", () => setRunning(!w.running));
  $("watch-next").addEventListener("click", () => go("nextJudgement"));
  $("watch-prev").addEventListener("click", () => go("prevJudgement"));
  $("watch-next-diff").addEventListener("click", () => go("nextDifference"));
  $("watch-prev-diff").addEventListener("click", () => go("prevDifference"));
  $("watch-step").addEventListener("click", () => { setRunning(false); seek(replay.frame + 1); });
  $("watch-back").addEventListener("click", () => { setRunning(false); seek(replay.frame - 1); });
  $("watch-seek").addEventListener("change", (ev) => { setRunning(false); seek(Number(ev.target.value)); });
  $("watch-restart").addEventListener("click", () => { setRunning(false); seek(0); });
  $("watch-rules").addEventListener("change", () => { shownCount = -1; draw(); });    // the same frame, other rules
  window.addEventListener("hashchange", jumpToHash);

  // ---------------------------------------------------------------- for the tests
  /** Replay to *frame* frames played (backward from a checkpoint), unpaced. */
  w.playTo = async (frame) => { setRunning(false); return seek(frame); };
  w.ramBase64 = () => toBase64(replay.m.mem);
  w.canvasRGBA = () => toBase64(ctx.getImageData(0, 0, 320, 256).data);
  w.ppc = () => replay.m.ppc;
  w.nowShown = () => [...$("watch-now").children].map((li) => Number(li.dataset.n));
  w.logShown = () => [...$("watch-log").children].map((li) => Number(li.dataset.n));
  w.nextJudgement = () => go("nextJudgement");
  w.go = go;
  w.checkpoints = () => checkpoints.map((c) => c.frame);
  /** Why the recording is not this page's game (one line), or null: the game its creator data names
   * (records/frames.py's rzx_tag; game null: a session played by hand, play --record-rzx) against the payload's
   * (the transcript's game and seed, the run's tape). A recording that names no game is played (the page says so beside the player). */
  function refusal(r) {
    if (!r.custom || !P.belongs) return null;
    let named = null;
    try { named = JSON.parse(r.custom); } catch (e) { named = null; }
    const words = (g) => (g.game === null ? "a session played by hand" : `game ${g.game}`) +
      (g.seed === null || g.seed === undefined ? "" : ` (seed ${g.seed})`);
    if (!named || (typeof named.game !== "number" && named.game !== null))
      return `${P.rzx_name}: its creator block's data does not name a game`;
    const mine = P.belongs;
    if (named.game !== mine.game || (named.seed != null && mine.seed != null && named.seed !== mine.seed))
      return `${P.rzx_name}: a recording of ${words(named)}, not of this page's ${words(mine)}`;
    if (named.tape_sha256 && mine.tape_sha256 && named.tape_sha256 !== mine.tape_sha256)
      return `${P.rzx_name}: a recording on the tape of SHA-256 ${named.tape_sha256.slice(0, 12)}…, not on this ` +
        `page's run's (${mine.tape_sha256.slice(0, 12)}…)`;
    return null;
  }

  function refuse(line) {
    w.refused = line;
    const over = $("watch-desync");
    over.textContent = line;
    over.hidden = false;
    canvas.classList.add("desynced");
    $("watch-status").textContent = "not played: " + line;
    return false;
  }

  w.refused = null;
  w.ready = ZX.readRzx(rzxBytes).then((r) => {
    const why = refusal(r);
    if (why) return refuse(why);
    rzx = r;
    return restart().then(() => {
      for (const b of document.querySelectorAll(".watch-controls button, .watch-controls input")) b.disabled = false;
      jumpToHash();
      return true;
    });
  });
})();

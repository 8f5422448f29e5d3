// Watch mode on a game page of report.html: the game's RZX replayed on the WebAssembly core
// (spectrum.js's RzxReplay) and each judgement of the game's stored records shown beside the screen once
// the replay reaches its action's frame (harness/edition/report.py's watch_entries made them; nothing is
// judged here). window.zxWatch is for the tests.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const P = JSON.parse($("watch-payload").textContent);
  const wasm = ZX.decodeBase64(P.wasm), rom = ZX.decodeBase64(P.rom), rzxBytes = ZX.decodeBase64(P.rzx);
  const canvas = $("watch-screen"), ctx = canvas.getContext("2d", {willReadFrequently: true}), image = ctx.createImageData(320, 256);
  const byFrame = [...P.entries].sort((a, b) => a.frame - b.frame || a.n - b.n);
  // desync: the first frame that did not replay as recorded ({frame, what}); the replay stops there
  const w = {frame: 0, frames: 0, shownAt: {}, problems: [], running: false, desync: null};
  window.zxWatch = w;
  let rzx = null, replay = null, next = 0, lastShownFrame = -1;

  function toBase64(bytes) {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }
  const rules = () => $("watch-rules").value;

  function entryItem(e) {
    const li = document.createElement("li");
    const unexplained = e.differences.some((d) => !d.deviation);
    li.className = unexplained ? "unexplained" : e.differences.length ? "documented" : "agrees";
    li.dataset.n = e.n;
    const head = document.createElement("div");
    const b = document.createElement("b");
    b.textContent = e.judged;
    head.append(b, ` — ${e.what}, frame ${e.frame}`);
    li.appendChild(head);
    if (e.action) { const a = document.createElement("div"); a.className = "action"; a.textContent = e.action; li.appendChild(a); }
    const lines = [];
    if (e.pegged.length) lines.push(["the program pegged", e.pegged.join("; ")]);
    if (e.expected.length) lines.push(["the engine", e.expected.join("; ")]);
    if (!e.pegged.length && !e.expected.length) lines.push(["", `${e.checks} check${e.checks === 1 ? "" : "s"}`]);
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
      if (d.deviation) { badge.className = "badge dev"; badge.href = `${P.edition}/deviations.html#${d.deviation}`; }
      div.append(badge, " " + d.text);
      li.appendChild(div);
    }
    if (!e.differences.length) {
      const d = document.createElement("div");
      d.className = "agree"; d.textContent = "no difference";
      li.appendChild(d);
    }
    return li;
  }

  function showDue() {
    const now = [];
    while (next < byFrame.length && byFrame[next].frame <= replay.frame) {
      const e = byFrame[next++];
      w.shownAt[e.n] = replay.frame;
      if (e.rules === rules()) now.push(e);
    }
    if (now.length) {
      lastShownFrame = replay.frame;
      const list = $("watch-now");
      list.textContent = "";
      for (const e of now) list.appendChild(entryItem(e));
      const log = $("watch-log");
      for (const e of now) log.insertBefore(entryItem(e), log.firstChild);
      $("watch-count").textContent = `${log.children.length} of ${P.entries.filter((e) => e.rules === rules()).length}`;
    }
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
    $("watch-now").textContent = "";
    const over = $("watch-desync");
    over.textContent = desyncWords(w.desync);
    over.hidden = false;
    canvas.classList.add("desynced");
    for (const id of ["watch-play", "watch-next"]) $(id).disabled = true;
  }

  function draw() {
    ZX.renderScreen(replay.m.mem, replay.m.border, Math.floor(replay.frame / P.flash_frames) % 2 === 1, image.data);
    ctx.putImageData(image, 0, 0);
    w.frame = replay.frame;
    const due = byFrame.find((e, i) => i >= next && e.rules === rules());
    $("watch-status").textContent = `frame ${replay.frame} of ${replay.frames}` +
      (w.desync ? " — stopped: " + desyncWords(w.desync) :
        replay.frame >= replay.frames ? " — the end of the recording" : due ? `; the next judgement at frame ${due.frame}` : "");
  }

  function step(n) {
    for (let i = 0; i < n && replay.frame < replay.frames && !w.desync; i++) {
      replay.play(1);
      if (replay.problems.length) { w.problems = replay.problems; stopOnDesync(); break; }
      showDue();
    }
    w.problems = replay.problems;
  }

  async function restart() {
    const m = await ZX.Machine.create(wasm, rom, {});
    replay = new ZX.RzxReplay(m, rzx);
    w.frames = replay.frames;
    next = 0; lastShownFrame = -1; w.shownAt = {}; w.problems = []; w.desync = null;
    $("watch-desync").hidden = true; canvas.classList.remove("desynced");
    for (const id of ["watch-play", "watch-next"]) $(id).disabled = false;
    $("watch-now").textContent = ""; $("watch-log").textContent = ""; $("watch-count").textContent = "";
    showDue();
    draw();
  }

  // ---------------------------------------------------------------- pacing
  let last = 0, owed = 0;
  function tick(now) {
    if (!w.running) return;
    const speed = $("watch-speed").value;
    if (speed === "full") {
      const until = performance.now() + 12;
      while (performance.now() < until && replay.frame < replay.frames) step(50);
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

  /** Play on until the next judgement of the chosen rule set is shown (or the recording ends). */
  function toNextJudgement() {
    setRunning(false);
    const shown = lastShownFrame;
    while (replay.frame < replay.frames && lastShownFrame === shown && !w.desync) step(1);
    draw();
  }

  $("watch-play").addEventListener("click", () => setRunning(!w.running));
  $("watch-next").addEventListener("click", toNextJudgement);
  $("watch-restart").addEventListener("click", () => { setRunning(false); restart(); });
  $("watch-rules").addEventListener("change", () => { setRunning(false); restart(); });

  // ---------------------------------------------------------------- for the tests
  /** Replay to *frame* frames played (from the start again if it is behind), unpaced. */
  w.playTo = async (frame) => {
    setRunning(false);
    if (frame < replay.frame) await restart();
    step(frame - replay.frame);
    draw();
    return replay.frame;
  };
  w.ramBase64 = () => toBase64(replay.m.mem);
  w.canvasRGBA = () => toBase64(ctx.getImageData(0, 0, 320, 256).data);
  w.ppc = () => replay.m.ppc;
  w.nowShown = () => [...$("watch-now").children].map((li) => Number(li.dataset.n));
  w.nextJudgement = toNextJudgement;
  w.ready = ZX.readRzx(rzxBytes).then((r) => { rzx = r; return restart(); }).then(() => {
    $("watch-play").disabled = false; $("watch-next").disabled = false; return true;
  });
})();

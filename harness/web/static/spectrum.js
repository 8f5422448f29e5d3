// The 48K Spectrum in the page: the WebAssembly core (harness/web/spectrum.cpp) driven the way
// harness/spectrum/machine.py and harness/play/session.py drive theirs, so a key record replayed here
// gives the embedded machine's RAM and screen frame for frame. No DOM here (node runs it too): the page's
// own script (app.js) draws, listens and paces.
(function (root) {
  "use strict";

  const FRAME_T = 69888;
  const A = {FLAGS: 23611, FLAGX: 23665, PPC: 23621, SUBPPC: 23623, VARS: 23627, E_LINE: 23641,
    ERR_SP: 23613, RAMTOP: 23730, FRAMES: 23672, BORDCR: 23624};
  const WAITS = [null, "input", "editor", "pause", "inkey"];
  const PAUSE_RANGE = [0x1F3D, 0x1F4F];

  function decodeBase64(text) {
    if (typeof atob === "function") {
      const bin = atob(text), out = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
      return out;
    }
    return new Uint8Array(Buffer.from(text, "base64"));
  }

  /** A .tap file's blocks: [{flag, data}] without the flag and checksum bytes (tape.py's read_tap). */
  function readTap(bytes) {
    const blocks = [];
    let i = 0;
    while (i + 2 <= bytes.length) {
      const len = bytes[i] | bytes[i + 1] << 8;
      if (len < 2 || i + 2 + len > bytes.length) throw new Error(`tape: block at byte ${i} is cut short`);
      blocks.push({flag: bytes[i + 2], data: bytes.subarray(i + 3, i + 2 + len - 1)});
      i += 2 + len;
    }
    return blocks;
  }

  /** The machine: one WebAssembly instance, the ROM in its first 16K. */
  class Machine {
    constructor(exports, rom, keyPositions) {
      this.x = exports;
      this.keyPositions = keyPositions;        // key name -> [half-row, bit] (keyboard.py's KEY_POSITIONS)
      if (exports._initialize) exports._initialize();      // the C++ constructors (a WASI reactor)
      this.mem = new Uint8Array(exports.memory.buffer, exports.ram(), 0x10000);
      this.rows = new Uint8Array(exports.memory.buffer, exports.keyboard(), 8);
      this.mem.set(rom);
      exports.power_on();
      this.held = "";
    }

    static async create(wasmBytes, rom, keyPositions) {
      const {instance} = await WebAssembly.instantiate(wasmBytes, {});
      return new Machine(instance.exports, rom, keyPositions);
    }

    get frames() { return this.x.frames(); }
    get border() { return this.x.border(); }
    get pc() { return this.x.reg(0); }
    get sp() { return this.x.reg(1); }
    get bc() { return this.x.reg(2); }
    peek(a) { return this.mem[a & 0xFFFF]; }
    word(a) { return this.mem[a & 0xFFFF] | this.mem[(a + 1) & 0xFFFF] << 8; }
    get ppc() { return this.word(A.PPC); }
    get subppc() { return this.peek(A.SUBPPC); }

    /** Hold exactly these Spectrum keys (names as keyboard.py spells them); a change clears INKEY$'s polls. */
    setKeys(keys) {
      const sorted = [...keys].sort().join("+");
      if (sorted === this.held) return;
      this.held = sorted;
      const rows = [0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F];
      for (const k of keys) {
        const pos = this.keyPositions[k];
        if (!pos) throw new Error(`unknown Spectrum key ${k}`);
        rows[pos[0]] &= ~(1 << pos[1]) & 0x1F;
      }
      this.rows.set(rows);
      this.x.keys_changed();
    }

    frame(n = 1) { return this.x.run_frames(n); }

    /** What the program waits for now: null, "input", "editor", "pause" or "inkey" (machine.py's wait_state). */
    wait() { return WAITS[this.x.wait_state()]; }
    takeReport() { return this.x.take_report(); }

    /** Frames until the same kind of wait at two frame ends, or a report (machine.py's run(until_wait)). */
    runUntilWait(maxFrames) {
      let previous = null;
      for (let i = 0; i < maxFrames; i++) {
        this.frame();
        if (this.takeReport() >= 0) return "report";
        const w = this.wait();
        if (w !== null && w === previous) return w;
        previous = w;
      }
      throw new Error(`no wait for a key within ${maxFrames} frames (line ${this.ppc})`);
    }

    /** Tape blocks into the deck, rewound. */
    insertTape(blocks) {
      const buf = new Uint8Array(this.x.memory.buffer, this.x.tape(), this.x.tape_capacity());
      let at = 0;
      for (const b of blocks) {
        if (at + 3 + b.data.length > buf.length) throw new Error("tape: too big for the deck");
        buf[at] = b.data.length & 0xFF; buf[at + 1] = b.data.length >> 8; buf[at + 2] = b.flag;
        buf.set(b.data, at + 3);
        at += 3 + b.data.length;
      }
      this.x.insert_tape(at);
    }

    /** One key combination as typist.py's Typist.key types it: held 2 frames, up 5, then until the editor took it. */
    typeKey(keys) {
      this.setKeys(keys); this.frame(2);
      this.setKeys([]); this.frame(5);
      for (let i = 0; i < 100 && (this.peek(A.FLAGS) & 0x20); i++) this.frame();
    }

    /** Power on, LOAD "" the tape, plant *seed* when line *seedLine* starts (session.py's _start_tape). */
    loadTape(blocks, seed, seedLine) {
      this.runUntilWait(300);                               // the (c) message: the editor waits
      if (seed !== null && seed !== undefined) this.x.plant_seed(seed % 65536, seedLine);
      this.insertTape(blocks);
      for (const k of [["J"], ["SYMBOL SHIFT", "P"], ["SYMBOL SHIFT", "P"], ["ENTER"]]) this.typeKey(k);
      return this.runUntilWait(3000);
    }

    /** The GO SUB stack, innermost first: [line, statement] (machine.py's gosub_stack). */
    gosubStack() {
      const out = [];
      const end = this.word(A.RAMTOP) - 1;
      for (let a = this.word(A.ERR_SP) + 2; a + 3 <= end; a += 3) out.push([this.word(a), this.peek(a + 2)]);
      return out;
    }

    inPause() { return PAUSE_RANGE[0] <= this.pc && this.pc < PAUSE_RANGE[1]; }

    /** The machine as a version 1 .z80 (30-byte header, the 48K uncompressed), which Fuse opens; a halted
     * CPU is saved with PC on its HALT, as z80snap.py saves it. */
    z80() {
      this.x.save_registers();
      const r = new Uint16Array(this.x.memory.buffer, this.x.registers(), 18);
      const out = new Uint8Array(30 + 0xC000), h = out;
      const pc = r[17] ? (r[11] - 1) & 0xFFFF : r[11];
      const w = (at, v) => { h[at] = v & 0xFF; h[at + 1] = v >> 8; };
      h[0] = r[0] >> 8; h[1] = r[0] & 0xFF; w(2, r[1]); w(4, r[3]); w(6, pc); w(8, r[10]);
      h[10] = r[12]; h[11] = r[13] & 0x7F; h[12] = (r[13] >> 7) | (this.border << 1);
      w(13, r[2]); w(15, r[5]); w(17, r[6]); w(19, r[7]); h[21] = r[4] >> 8; h[22] = r[4] & 0xFF;
      w(23, r[9]); w(25, r[8]); h[27] = r[14]; h[28] = r[15]; h[29] = r[16] & 3;
      out.set(this.mem.subarray(0x4000), 30);
      return out;
    }

    /** Put back a .z80 that z80() wrote (version 1, uncompressed); anything else is refused. */
    loadZ80(bytes) {
      if (bytes.length !== 30 + 0xC000 || bytes[6] === 0 && bytes[7] === 0 || (bytes[12] & 0x20))
        throw new Error("not a .z80 this page saved (version 1, uncompressed, 49,182 bytes)");
      const h = bytes, g = (at) => h[at] | h[at + 1] << 8;
      const r = new Uint16Array(this.x.memory.buffer, this.x.registers(), 18);
      r.set([h[0] << 8 | h[1], g(2), g(13), g(4), h[21] << 8 | h[22], g(15), g(17), g(19), g(25), g(23), g(8), g(6),
        h[10], (h[11] & 0x7F) | (h[12] & 1) << 7, h[27], h[28], h[29] & 3, 0]);
      this.x.load_registers();
      this.mem.set(bytes.subarray(30), 0x4000);
      this.x.set_border((h[12] >> 1) & 7);
      this.setKeys([]);
    }
  }

  /** The record's keys frame by frame (record.py's KeyPlayer); null once it has ended. */
  class KeyPlayer {
    constructor(record) { this.record = record; this.i = 0; this.keys = []; }
    keysAt(frame) {
      if (frame >= this.record.frames) return null;
      const ch = this.record.keys;
      while (this.i < ch.length && ch[this.i][0] <= frame) { this.keys = ch[this.i][1]; this.i++; }
      return this.keys;
    }
  }

  /** Host keys held, a quick tap held MIN_HOLD frames (keymap.py's HeldKeys); names as pygame's. */
  class HeldKeys {
    constructor(hostKeys, minHold) { this.hostKeys = hostKeys; this.minHold = minHold; this.down_ = new Map(); this.releasing = new Map(); }
    down(name, frame) { this.releasing.delete(name); if (!this.down_.has(name)) this.down_.set(name, frame); }
    up(name, frame) {
      const since = this.down_.get(name);
      this.down_.delete(name);
      if (since !== undefined && frame < since + this.minHold) this.releasing.set(name, since + this.minHold);
    }
    clear() { this.down_.clear(); this.releasing.clear(); }
    spectrumKeys(frame) {
      for (const [k, until] of [...this.releasing]) if (frame >= until) this.releasing.delete(k);
      const keys = new Set();
      for (const k of [...this.down_.keys(), ...this.releasing.keys()]) {
        const combo = this.hostKeys[k];
        if (combo) for (const part of combo.split("+")) keys.add(part);
      }
      return keys;
    }
  }

  /** One game as session.py's PlaySession: frames counted from the tape's first question; keys from a
   * record or from the person; the turbo rule's reasons to keep real time. */
  class Session {
    constructor(machine, facts, seed, record) {
      this.m = machine;
      this.facts = facts;
      this.seed = seed;
      this.frames = 0;
      this.player = record ? new KeyPlayer(record) : null;
      this.held = new HeldKeys(facts.host_keys, facts.min_hold);
      this.touch = new HeldKeys(facts.touch_combos || {}, facts.min_hold);   // the on-screen keys, by label
      this.apiKeys = new Set();
      this.changes = [];                        // [frame, keys] as record.py's KeyRecord.note keeps them
      this.messageUntil = -1;
      this.lastMessages = 0;
      this.paused = false;
      this.ignoredGo = null;      // the count when that ENTER was ignored (2742), until the next key goes down
      this.keysBefore = 0;
    }

    /** At the player's turn (the card selector called by 2720), the line it polls at, the count and whether
     * the pointer is on an empty slot; null elsewhere. */
    playSlot() {
      const g = this.facts.ignored_go, m = this.m;
      if (m.wait() === null || !this.facts.selector_waits.includes(m.ppc) || this.caller() !== g.select_play) return null;
      const vars = new Map(readVariables(m.mem));
      const x = vars.get(g.pointer), held = vars.get(g.held);
      return {line: m.ppc, count: vars.get(g.count), empty: held !== undefined && held.values[x - 1] === 0};
    }

    /** session.py's ignored_go, from what the page can see. ENTER going down while the player's turn polls
     * with the pointer on an empty slot and the count under 22 is ignored, as the listing runs: 3730 returns,
     * 2740 finds B(X)=0, 2742 IF SUM<22 THEN GO TO 2720 (session.py sees 2742 itself, by a statement hook). */
    noteIgnoredGo(keys) {
      const g = this.facts.ignored_go, down = keys.size > 0 && this.keysBefore === 0;
      this.keysBefore = keys.size;
      if (!down) return;
      this.ignoredGo = null;                                     // a key goes down: the last reason is old news
      const before = this.playSlot();
      if (before && before.line !== g.keys_held && before.empty && before.count < g.threshold && keys.has("ENTER"))
        this.ignoredGo = before.count;
    }

    start(tape) {
      const blocks = readTap(tape);
      const how = this.m.loadTape(blocks, this.seed, this.facts.seed_line);
      this.m.x.watch_statement(this.facts.at_message[0], this.facts.at_message[1]);
      this.m.x.watch_deal(this.facts.at_dealt[0], this.facts.at_dealt[1]);
      this.lastMessages = this.m.x.watched();
      return how;
    }

    get replaying() { return this.player !== null && this.frames < this.player.record.frames; }

    wantedKeys() {
      if (this.player) {
        const keys = this.player.keysAt(this.frames);
        if (keys !== null) return new Set(keys);
      }
      const keys = this.held.spectrumKeys(this.frames);
      for (const k of this.touch.spectrumKeys(this.frames)) keys.add(k);
      for (const k of this.apiKeys) keys.add(k);
      return keys;
    }

    /** The keys held from *frame* on (KeyRecord.note: one entry a frame, only changes). */
    note(frame, keys) {
      const sorted = [...keys].sort(), c = this.changes;
      if (c.length && c[c.length - 1][0] === frame) c.pop();
      const before = c.length ? c[c.length - 1][1].join("+") : "";
      if (before !== sorted.join("+")) c.push([frame, sorted]);
    }

    /** The game so far as a key record (play --record's fields but the tape's): its seed, frames and keys. */
    keyRecord() { return {seed: this.seed, frames: this.frames, keys: this.changes.map(([f, k]) => [f, [...k]])}; }

    step(n = 1) {
      for (let i = 0; i < n; i++) {
        const wanted = this.wantedKeys();
        this.note(this.frames, wanted);
        this.noteIgnoredGo(wanted);
        this.m.setKeys(wanted);
        this.m.frame();
        this.frames++;
        const seen = this.m.x.watched();
        if (seen !== this.lastMessages) { this.lastMessages = seen; this.messageUntil = this.frames - 1 + this.facts.message_frames; }
        if (this.m.wait() !== null) this.messageUntil = -1;
      }
    }

    keysDown() { return this.wantedKeys().size > 0; }

    /** Why turbo keeps real time now (session.py's needs_real_time), or null. */
    needsRealTime() {
      const m = this.m;
      if (m.inPause() && m.bc !== 0) return "pause";
      const [lo, hi] = this.facts.demo_lines;
      if ((lo <= m.ppc && m.ppc < hi) || m.gosubStack().some(([line]) => lo <= line && line < hi)) return "demo";
      if (this.frames < this.messageUntil) return "message";
      return null;
    }

    /** Turbo may hurry: no key held, no wait, nothing to read (window.py's _may_hurry); without *readingTime*,
     * through a timed PAUSE and a message's reading time too (session.py's READING_TIME, facts.reading_time). */
    mayHurry(readingTime = true) {
      if (this.keysDown() || this.m.wait() !== null) return false;
      const why = this.needsRealTime();
      return why === null || (!readingTime && this.facts.reading_time.includes(why));
    }

    caller() { const s = this.m.gosubStack(); return s.length ? s[0][0] : null; }

    /** The English status line of the wait now (waits.py's status_text, its table exported at build). */
    status() {
      const w = this.m.wait();
      const f = this.facts;
      let text = f.running;
      if (w !== null) {
        const line = this.m.ppc;
        if (f.selector_waits.includes(line)) {
          const c = this.caller();
          text = (c !== null && f.selector_status[c]) || `waiting at line ${line}`;
        } else text = f.status[line] || `waiting at line ${line}`;
      }
      if (this.ignoredGo !== null) text = `${f.ignored_go.text.replace("{count}", this.ignoredGo)} | ${text}`;
      if (!this.replaying) return text;
      // session.py's status_line: the page replays at real speed only (no running ahead)
      return `REPLAY at real speed: frame ${this.frames} of ${this.player.record.frames}, deal ${this.m.x.dealt()} ` +
        `(the keys are yours when it ends) | ${text}`;
    }
  }

  // ------------------------------------------------------------------ the variables area
  function number5(b, i) {
    if (b[i] === 0) {                                    // the small-integer form
      const v = b[i + 2] | b[i + 3] << 8;
      return b[i + 1] === 0xFF ? v - 65536 : v;
    }
    const sign = b[i + 1] & 0x80 ? -1 : 1;
    const m = ((b[i + 1] | 0x80) * 16777216 + b[i + 2] * 65536 + b[i + 3] * 256 + b[i + 4]);
    return sign * m * Math.pow(2, b[i] - 128 - 32);
  }

  /** Every variable of the VARS area as [name, value] (variables.py's names: X, SUM, A$, P(), H$()). */
  function readVariables(mem) {
    const vars = mem[A.VARS] | mem[A.VARS + 1] << 8, end = mem[A.E_LINE] | mem[A.E_LINE + 1] << 8;
    const out = [];
    let a = vars;
    const letter = (c) => String.fromCharCode(0x60 + (c & 0x1F)).toUpperCase();
    while (a < end && mem[a] !== 0x80) {
      const c = mem[a], kind = c >> 5;
      if (kind === 0b011) { out.push([letter(c), number5(mem, a + 1)]); a += 6; }
      else if (kind === 0b101) {
        let name = letter(c); a++;
        while (!(mem[a] & 0x80)) name += String.fromCharCode(mem[a++]).toUpperCase();
        name += String.fromCharCode(mem[a++] & 0x7F).toUpperCase();
        out.push([name, number5(mem, a)]); a += 5;
      } else if (kind === 0b111) { out.push([letter(c), number5(mem, a + 1)]); a += 19; }
      else if (kind === 0b010) {
        const len = mem[a + 1] | mem[a + 2] << 8;
        out.push([letter(c) + "$", String.fromCharCode(...mem.subarray(a + 3, a + 3 + len))]); a += 3 + len;
      } else if (kind === 0b100 || kind === 0b110) {
        const len = mem[a + 1] | mem[a + 2] << 8, dims = mem[a + 3], shape = [];
        for (let d = 0; d < dims; d++) shape.push(mem[a + 4 + 2 * d] | mem[a + 5 + 2 * d] << 8);
        const data = a + 4 + 2 * dims, count = shape.reduce((x, y) => x * y, 1);
        let values;
        if (kind === 0b100) { values = []; for (let k = 0; k < count; k++) values.push(number5(mem, data + 5 * k)); }
        else values = String.fromCharCode(...mem.subarray(data, data + count));
        out.push([letter(c) + (kind === 0b110 ? "$()" : "()"), {shape, values}]);
        a += 3 + len;
      } else break;                                     // not a variable: the area is not as the ROM keeps it
    }
    return out;
  }

  // ------------------------------------------------------------------ the screen
  const LEVELS = [0x00, 0xD7, 0xFF];
  const PALETTE = [];
  for (const b of [0, 1]) for (let c = 0; c < 8; c++)
    PALETTE.push([((c >> 1) & 1) * LEVELS[1 + b], ((c >> 2) & 1) * LEVELS[1 + b], (c & 1) * LEVELS[1 + b]]);

  /** RGBA pixels of the screen with its border (320x256), as screen.py's render draws it. */
  function renderScreen(mem, border, flashPhase, rgba) {
    const bc = PALETTE[border & 7];
    for (let i = 0; i < 320 * 256; i++) { rgba[4 * i] = bc[0]; rgba[4 * i + 1] = bc[1]; rgba[4 * i + 2] = bc[2]; rgba[4 * i + 3] = 255; }
    for (let y = 0; y < 192; y++) {
      const rowBase = 0x4000 + ((y & 0xC0) << 5) + ((y & 7) << 8) + ((y & 0x38) << 2);
      for (let col = 0; col < 32; col++) {
        const attr = mem[0x5800 + (y >> 3) * 32 + col], bright = (attr >> 6) & 1;
        let ink = (attr & 7) + bright * 8, paper = ((attr >> 3) & 7) + bright * 8;
        if (flashPhase && (attr & 0x80)) { const t = ink; ink = paper; paper = t; }
        const bits = mem[rowBase + col];
        for (let px = 0; px < 8; px++) {
          const colour = PALETTE[(bits >> (7 - px)) & 1 ? ink : paper];
          const o = 4 * ((y + 32) * 320 + 32 + col * 8 + px);
          rgba[o] = colour[0]; rgba[o + 1] = colour[1]; rgba[o + 2] = colour[2];
        }
      }
    }
  }


  // ------------------------------------------------------------------ RZX recordings (rzx.py's reader)
  /** zlib-inflate *bytes* (the browser's DecompressionStream; node's zlib). */
  async function inflate(bytes) {
    if (typeof DecompressionStream === "function") {
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    }
    return new Uint8Array(require("zlib").inflateSync(bytes));
  }

  /** An RZX file: its snapshot (a .z80) and its frames, as harness/spectrum/rzx.py's read_rzx reads them. */
  async function readRzx(bytes) {
    const u32 = (i) => (bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 | bytes[i + 3] << 24) >>> 0;
    if (String.fromCharCode(...bytes.subarray(0, 4)) !== "RZX!") throw new Error("not an RZX file (no 'RZX!' header)");
    let snapshot = null, fetches = [], inputs = [], tstates = 0, custom = "";
    for (let i = 10; i < bytes.length;) {
      const id = bytes[i], len = u32(i + 1), body = bytes.subarray(i + 5, i + len);
      if (len < 5 || i + len > bytes.length) throw new Error(`RZX block 0x${id.toString(16)} at byte ${i} runs past the end`);
      const b32 = (j) => (body[j] | body[j + 1] << 8 | body[j + 2] << 16 | body[j + 3] << 24) >>> 0;
      if (id === 0x10) {
        custom = String.fromCharCode(...body.subarray(24, 24 + 4096));   // the creator's own data (rzx.py's custom)
      } else if (id === 0x30 && snapshot === null) {
        const flags = b32(0);
        snapshot = flags & 2 ? await inflate(body.subarray(12)) : body.subarray(12);
      } else if (id === 0x80) {
        const count = b32(0), flags = b32(9);
        tstates = b32(5);
        const raw = flags & 2 ? await inflate(body.subarray(13)) : body.subarray(13);
        let j = 0, previous = new Uint8Array(0);
        for (let k = 0; k < count; k++) {
          const f = raw[j] | raw[j + 1] << 8, n = raw[j + 2] | raw[j + 3] << 8;
          j += 4;
          if (n !== 0xFFFF) { previous = raw.subarray(j, j + n); j += n; }
          fetches.push(f); inputs.push(previous);
        }
      }
      i += len;
    }
    if (snapshot === null) throw new Error("RZX: no snapshot block");
    return {snapshot, fetches, inputs, tstates, custom};
  }

  /** A 48K .z80 (version 1, 2 or 3, as z80snap.py reads them): the registers in load_registers' order
   * (AF BC DE HL AF' BC' DE' HL' IX IY SP PC I R IFF1 IFF2 IM, halted), the border and the 48K of RAM. */
  function readZ80(h) {
    const g = (at) => h[at] | h[at + 1] << 8;
    const unpack = (data, size) => {
      const out = new Uint8Array(size);
      let o = 0;
      for (let i = 0; i < data.length && o < size;) {
        if (data[i] === 0xED && data[i + 1] === 0xED) { out.fill(data[i + 3], o, o + data[i + 2]); o += data[i + 2]; i += 4; }
        else out[o++] = data[i++];
      }
      if (o !== size) throw new Error(`.z80: memory unpacks to ${o} bytes, not ${size}`);
      return out;
    };
    let pc = g(6), ram;
    if (pc !== 0) {
      const body = h.subarray(30);
      ram = h[12] & 0x20 ? unpack(body.subarray(0, body.length - 4), 0xC000) : body.slice(0, 0xC000);
    } else {
      const extra = g(30);
      pc = g(32);
      ram = new Uint8Array(0xC000);
      const where = {8: 0x0000, 4: 0x4000, 5: 0x8000};
      for (let i = 32 + extra; i + 3 <= h.length;) {
        const len = g(i), page = h[i + 2], size = len === 0xFFFF ? 0x4000 : len;
        const data = h.subarray(i + 3, i + 3 + size);
        if (page in where) ram.set(len === 0xFFFF ? data : unpack(data, 0x4000), where[page]);
        i += 3 + size;
      }
    }
    const regs = [h[0] << 8 | h[1], g(2), g(13), g(4), h[21] << 8 | h[22], g(15), g(17), g(19), g(25), g(23), g(8), pc,
      h[10], (h[11] & 0x7F) | (h[12] & 1) << 7, h[27] ? 1 : 0, h[28] ? 1 : 0, h[29] & 3, 0];
    return {regs, border: (h[12] >> 1) & 7, ram};
  }

  /** An RZX replayed on the machine (recording.py's RzxPlayer): from its snapshot, no traps; each frame its
   * count of fetches, IN answered from its readings, then the interrupt. problems: [frame, what] of frames
   * that did not play as recorded. */
  class RzxReplay {
    constructor(machine, rzx) {
      this.m = machine;
      this.rzx = rzx;
      const x = machine.x;
      x.clear_traps();
      const snap = readZ80(rzx.snapshot);
      new Uint16Array(x.memory.buffer, x.registers(), 18).set(snap.regs);
      x.load_registers();
      machine.mem.set(snap.ram, 0x4000);
      x.set_border(snap.border);
      this.inBuf = new Uint8Array(x.memory.buffer, x.rzx_inputs(), x.rzx_capacity());
      this.frame = 0;
      this.problems = [];
    }
    get frames() { return this.rzx.fetches.length; }
    play(n = 1) {
      const x = this.m.x;
      for (let i = 0; i < n && this.frame < this.frames; i++) {
        const inputs = this.rzx.inputs[this.frame];
        this.inBuf.set(inputs);
        const p = x.rzx_frame(this.rzx.fetches[this.frame], inputs.length);
        if (p) this.problems.push([this.frame, [p & 1 ? "the count ends inside an instruction" : "",
          p & 2 ? "an IN past the readings" : "", p & 4 ? "readings left unread" : ""].filter(Boolean).join(", ")]);
        this.frame++;
      }
      return this.frame;
    }
  }

  // ------------------------------------------------------------------ SHA-256 (FIPS 180-4), for a moment's hash
  // and a record's tape; synchronous, and it needs no secure context (crypto.subtle does), so file:// works.
  const K256 = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2]);
  function sha256(bytes) {
    const n = bytes.length, total = Math.ceil((n + 9) / 64) * 64, m = new Uint8Array(total);
    m.set(bytes); m[n] = 0x80;
    const bits = n * 8, dv = new DataView(m.buffer);
    dv.setUint32(total - 8, Math.floor(bits / 0x100000000)); dv.setUint32(total - 4, bits >>> 0);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
      0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    const rot = (x, r) => (x >>> r) | (x << (32 - r));
    for (let off = 0; off < total; off += 64) {
      for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
      for (let i = 16; i < 64; i++) {
        const a = w[i - 15], b = w[i - 2];
        w[i] = w[i - 16] + (rot(a, 7) ^ rot(a, 18) ^ (a >>> 3)) + w[i - 7] + (rot(b, 17) ^ rot(b, 19) ^ (b >>> 10));
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
        const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
  }

  /** A moment's short hash (record.py's moment_hash): SHA-256 of the 48K and the border byte, cut short. */
  function momentHash(mem, border, chars) {
    const bytes = new Uint8Array(0xC001);
    bytes.set(mem.subarray(0x4000, 0x10000)); bytes[0xC000] = border & 7;
    return sha256(bytes).slice(0, chars);
  }

  // ------------------------------------------------------------------ a link's key record (harness/web/link.py)
  async function streamBytes(bytes, stream) {
    return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
  }
  function base64url(bytes) {
    let bin = "";
    for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  /** The `keys=` value of a link for *record* ({frames, keys: [[frame, [key...]]]}): link.py's encode_keys. */
  async function encodeKeys(record) {
    let last = 0;
    const parts = ["1", String(record.frames)];
    for (const [f, k] of record.keys) { parts.push(`${f - last}:${k.join("+")}`); last = f; }
    return base64url(await streamBytes(new TextEncoder().encode(parts.join(";")), new CompressionStream("deflate-raw")));
  }
  /** A link's `keys=` value as {frames, keys}, or an Error saying in one line why it is not one. */
  async function decodeKeys(value, keyPositions) {
    let text;
    try {
      const bin = atob(value.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - value.length % 4) % 4));
      const raw = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) raw[i] = bin.charCodeAt(i);
      text = new TextDecoder("ascii").decode(await streamBytes(raw, new DecompressionStream("deflate-raw")));
    } catch (e) {
      throw new Error(`the link's keys= is not a deflated key record (${e.name})`);
    }
    const parts = text.split(";");
    if (parts.length < 2 || parts[0] !== "1") throw new Error(`the link's keys= is version ${parts[0]}, this page reads 1`);
    const frames = Number(parts[1]), keys = [];
    let frame = 0;
    for (const [n, part] of parts.slice(2).entries()) {
      const [delta, held = ""] = part.split(":");
      if (!/^\d+$/.test(delta) || (n && Number(delta) < 1)) throw new Error(`the link's keys=: change ${n} is not after the one before`);
      frame += Number(delta);
      const ks = held ? held.split("+") : [];
      for (const k of ks) if (!keyPositions[k]) throw new Error(`the link's keys=: ${k} is not a 48K key`);
      keys.push([frame, ks]);
    }
    if (!Number.isInteger(frames) || frames < frame) throw new Error(`the link's keys=: ${parts[1]} frames, a change at ${frame}`);
    return {frames, keys};
  }

  // ------------------------------------------------------------------ the screen as text (screen.py's reader)
  const hexBytes = (h) => h;               // glyphs are keyed by their 16 hex digits
  function hex8(mem, a) {
    let s = "";
    for (let i = 0; i < 8; i++) s += mem[(a + i) & 0xFFFF].toString(16).padStart(2, "0");
    return s;
  }
  /** The glyph table of screen.py's glyph_table: the program's font at CHARS, the ROM's, the UDGs, the blocks. */
  function glyphTable(mem, f) {
    const table = new Map();
    const add = (g, t) => { if (!table.has(g)) table.set(g, t); };
    add("0000000000000000", " ");
    const chars = mem[23606] | mem[23607] << 8, udg = mem[23675] | mem[23676] << 8;
    if (chars !== f.rom_chars) for (let i = 0; i < 96; i++) add(hex8(mem, chars + 256 + 8 * i), f.font_text[i]);
    for (const [g, t] of f.rom_glyphs) add(hexBytes(g), t);
    for (let i = 0; i < 21; i++) if (udg + 8 * i + 8 <= 0x10000) add(hex8(mem, udg + 8 * i), f.udg_text[i]);
    for (const [g, t] of f.block_glyphs) add(g, t);
    return table;
  }
  /** The screen's 24 rows of 32 cells as text (an inverse glyph read as its letter; unknown cells as f.unknown). */
  function screenRows(mem, f) {
    const table = glyphTable(mem, f), rows = [];
    for (let r = 0; r < 24; r++) {
      let row = "";
      for (let c = 0; c < 32; c++) {
        const base = 0x4000 + ((r & 0x18) << 8) + ((r & 7) << 5) + c;
        let g = "", inv = "";
        for (let line = 0; line < 8; line++) {
          const b = mem[base + (line << 8)];
          g += b.toString(16).padStart(2, "0"); inv += (b ^ 0xFF).toString(16).padStart(2, "0");
        }
        row += table.get(g) ?? table.get(inv) ?? f.unknown;
      }
      rows.push(row);
    }
    return rows;
  }
  const isAlpha = (ch) => /\p{L}/u.test(ch);
  const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  /** translate.py's find_texts: the texts [russian, english] the rows show, in screen order, each once. */
  function findTexts(rows, texts) {
    const screen = rows.map((r) => r.padEnd(32).slice(0, 32)).join("");
    const taken = new Array(screen.length).fill(false), found = [], seen = new Set();
    const edges = (text, start, end) => !(start > 0 && isAlpha(text[start - 1])) && !(end < text.length && isAlpha(text[end]));
    const byLength = [...texts].sort((a, b) => b[0].length - a[0].length);
    for (const t of byLength) {
      const pattern = new RegExp((t[0].match(/ +|[^ ]+/g) || []).map((p) => p.trim() === "" ? `[\\s\\S]{${p.length}}` : escapeRe(p)).join(""), "g");
      let m;
      pattern.lastIndex = 0;
      while ((m = pattern.exec(screen)) !== null) {
        const start = m.index, end = start + m[0].length;
        if (!taken.slice(start, end).some(Boolean) && edges(screen, start, end)) {
          for (let i = start; i < end; i++) taken[i] = true;
          if (!seen.has(t[0])) { found.push([start, t]); seen.add(t[0]); }
        }
        pattern.lastIndex = start + 1;
      }
    }
    const alone = (at) => { const col = at % 32; return !((col > 0 && isAlpha(screen[at - 1])) || (col < 31 && isAlpha(screen[at + 1]))); };
    for (let column = 0; column < 32; column++) {
      const letters = [];
      for (let row = 0; row < 24; row++) { const at = row * 32 + column, ch = screen[at]; if (ch.trim() !== "" && alone(at)) letters.push([at, ch]); }
      const down = letters.map(([, ch]) => ch).join("");
      for (const t of texts) {
        if (t[0].length < 3 || t[0].includes(" ") || seen.has(t[0])) continue;
        const start = down.indexOf(t[0]);
        if (start >= 0 && edges(down, start, start + t[0].length)) { found.push([letters[start][0], t]); seen.add(t[0]); }
      }
    }
    return found.sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  }

  /** One frame's beeper as *n* samples (±0.25): the level the frame began with, flipped at each edge's T-state
   * (app.js plays them through Web Audio; beeper.py's BeeperTrack is the embedded machine's). */
  function beeperSamples(at, level, n) {
    const data = new Float32Array(n);
    let e = 0;
    for (let i = 0; i < n; i++) {
      const t = i * FRAME_T / n;
      while (e < at.length && at[e] <= t) { level ^= 1; e++; }
      data[i] = level ? 0.25 : -0.25;
    }
    return data;
  }

  const api = {FRAME_T, beeperSamples, sha256, momentHash, encodeKeys, decodeKeys, screenRows, findTexts, readRzx, readZ80, RzxReplay, inflate, A, Machine, Session, KeyPlayer, HeldKeys, readTap, readVariables, renderScreen,
    decodeBase64, number5};
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.ZX = api;
})(this);

// The 48K Spectrum's frame loop over kosarev's z80.h (MIT), for WebAssembly: the same core the
// `z80` package runs, driven the way harness/spectrum/machine.py drives it, so that the page and the
// embedded machine reach the same state frame for frame.
//
// z80.h is taken at build time from the pinned `z80` source distribution (harness/web/build.py), never
// kept in the checkout. What machine.py does, mirrored here:
//  * frames of 69,888 T-states; the overshoot of the last instruction carried into the next frame;
//  * the interrupt offered at a frame's start until it is taken or the first 32 T-states have passed
//    (machine.py's _interrupt); the interrupt's own T-states are not counted in the frame;
//  * traps, as machine.py's: LD-BYTES serves tape blocks instantly, MAIN-4 notes a report, S-INKEY
//    notes the frames INKEY$ is polled in without a key, and STMT-L-1 plants the seed at one line;
//  * port 0xFE: the keyboard's half-rows, bit 6 the EAR output; writes set the border and the beeper.
// And an RZX player (rzx_frame), as harness/spectrum/recording.py's RzxPlayer: no traps, each frame runs its
// count of instruction fetches (R's difference, instruction by instruction), every IN answered by the frame's
// next recorded reading, then the frame's interrupt is offered.
#include "z80.h"

#include <stdint.h>

namespace {

const unsigned FRAME_T = 69888;
const unsigned INT_LENGTH_T = 32;
const uint16_t LD_BYTES = 0x0556, MAIN_4 = 0x1303, S_INKEY = 0x2634, STMT_START = 0x1B2F;
const uint16_t PPC = 23621, SUBPPC = 23623, SEED = 23670, ERR_NR = 23610, BORDCR = 23624;
const unsigned MAX_EDGES = 4096;
const unsigned TAPE_MAX = 1 << 16;

class Spectrum : public z80::z80_cpu<Spectrum> {
public:
    typedef z80::z80_cpu<Spectrum> base;

    uint8_t mem[0x10000] = {};
    uint8_t traps[0x10000] = {};
    uint8_t rows[8] = {0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F};
    events_mask::type events = 0;
    uint32_t ticks = 0;           // every T-state the core ticked (the interrupt's too), for differences
    int32_t t = 0;                // T-states into the frame, as machine.py's s.t
    uint32_t frames = 0;
    uint8_t border = 7, ear = 0;
    uint32_t edges = 0;                    // ear edges since power-on
    uint32_t frame_edges = 0;              // ... in the frame under way
    uint32_t edge_t[MAX_EDGES];            // the T-state of each edge of the frame under way
    uint32_t inkey[4] = {0, 0, 0, 0};      // the last frames INKEY$ was polled with no key down
    uint32_t inkey_n = 0;
    int32_t report = -1;                   // ERR_NR of a report printed and not yet taken
    int32_t report_line = 0;
    int32_t seed = -1, seed_line = -1;     // plant SEED when line seed_line starts
    uint8_t tape[TAPE_MAX];                // the tape: blocks as [len lo, len hi, flag, data...]
    uint32_t tape_len = 0, tape_pos = 0, tape_block = 0;
    uint32_t statements = 0;
    int32_t watch_line = -1, watch_stmt = -1;   // count the starts of one statement (the page's message rule)
    uint32_t watched = 0;
    int32_t deal_line = -1, deal_stmt = -1;     // ... and of another: both hands dealt (the replay's deal count)
    uint32_t dealt = 0;

    bool rzx = false;                           // playing an RZX frame: IN answers from rzx_in
    uint8_t rzx_in[0x10000];
    uint32_t rzx_in_n = 0, rzx_in_read = 0, rzx_in_over = 0;

    events_mask::type on_get_events() const { return events; }
    void on_set_events(events_mask::type e) { events = e; }
    bool on_is_breakpoint_addr(z80::fast_u16 addr) const { return traps[addr] != 0; }
    z80::fast_u8 on_read(z80::fast_u16 addr) { return mem[addr]; }
    void on_write(z80::fast_u16 addr, z80::fast_u8 n) {
        if(addr >= 0x4000)
            mem[addr] = static_cast<uint8_t>(n);
    }
    bool any_key() const {
        for(unsigned r = 0; r < 8; r++)
            if(rows[r] != 0x1F)
                return true;
        return false;
    }
    z80::fast_u8 on_input(z80::fast_u16 port) {
        if(rzx) {
            if(rzx_in_read < rzx_in_n)
                return rzx_in[rzx_in_read++];
            rzx_in_over++;
            return 0xFF;
        }
        if(port & 1)
            return 0xFF;
        unsigned high = port >> 8, value = 0x1F;
        for(unsigned r = 0; r < 8; r++)
            if(!(high & (1u << r)))
                value &= rows[r];
        return value | 0xA0 | (ear << 6);
    }
    void on_output(z80::fast_u16 port, z80::fast_u8 value) {
        if(port & 1)
            return;
        border = value & 7;
        uint8_t e = (value >> 4) & 1;
        if(e != ear) {
            ear = e;
            edges++;
            if(frame_edges < MAX_EDGES)
                edge_t[frame_edges] = t + (ticks - run_start);
            frame_edges++;
        }
    }
    void on_tick(unsigned n) {
        base::on_tick(n);
        ticks += n;
    }

    uint32_t run_start = 0;
    // The core until *n* T-states have passed (at least one instruction) or a trap's address is reached
    // (nothing executed there); z80.Z80Machine.run as harness/spectrum/cpu.py calls it.
    uint32_t run(uint32_t n, bool &at_trap) {
        run_start = ticks;
        at_trap = false;
        for(;;) {
            events_mask::type e = on_step();
            if(e & events_mask::breakpoint_hit) {
                at_trap = true;
                break;
            }
            if(ticks - run_start >= n)
                break;
        }
        return ticks - run_start;
    }
    uint32_t step_over() {
        run_start = ticks;
        on_step_over_breakpoint();
        return ticks - run_start;
    }

    uint16_t word(uint16_t a) const { return mem[a] | mem[(a + 1) & 0xFFFF] << 8; }
    void ret() {
        uint16_t sp = get_sp();
        set_pc(word(sp));
        set_sp((sp + 2) & 0xFFFF);
    }

    bool trap_ld_bytes() {
        if(tape_pos >= tape_len) {          // no block left: the ROM goes on waiting, as LOAD with no tape
            report = 0x100;
            return false;
        }
        uint32_t len = tape[tape_pos] | tape[tape_pos + 1] << 8;
        uint8_t flag = tape[tape_pos + 2];
        const uint8_t *data = tape + tape_pos + 3;
        tape_pos += 3 + len;
        tape_block++;
        unsigned a = get_a(), de = get_de(), ix = get_ix();
        bool is_load = get_f() & 1;
        bool ok = flag == a && len == de;
        if(ok) {
            if(is_load) {
                for(uint32_t i = 0; i < len; i++) {
                    uint16_t d = (ix + i) & 0xFFFF;
                    if(d >= 0x4000)
                        mem[d] = data[i];
                }
            } else {
                for(uint32_t i = 0; i < len && ok; i++)
                    ok = mem[(ix + i) & 0xFFFF] == data[i];
            }
        }
        set_ix((ix + (ok ? len : 0)) & 0xFFFF);
        if(ok)
            set_de(0);
        set_f((get_f() & 0xFE) | (ok ? 1 : 0));
        border = mem[BORDCR] >> 3 & 7;
        ret();
        return true;
    }
    bool trap(uint16_t pc) {
        switch(pc) {
        case LD_BYTES:
            return trap_ld_bytes();
        case MAIN_4:
            report = mem[ERR_NR];
            report_line = word(PPC);
            return false;
        case S_INKEY:
            if(!any_key() && (inkey_n == 0 || inkey[(inkey_n - 1) & 3] != frames)) {
                inkey[inkey_n & 3] = frames;
                inkey_n++;
            }
            return false;
        case STMT_START:
            statements++;
            if(word(PPC) == watch_line && mem[SUBPPC] == watch_stmt)
                watched++;
            if(word(PPC) == deal_line && mem[SUBPPC] == deal_stmt)
                dealt++;
            if(seed_line >= 0 && word(PPC) == seed_line) {
                mem[SEED] = seed & 0xFF;
                mem[SEED + 1] = (seed >> 8) & 0xFF;
                seed_line = -1;
            }
            return false;
        }
        return false;
    }
    void run_ticks(int32_t limit) {
        while(t < limit) {
            bool at_trap;
            t += run(static_cast<uint32_t>(limit - t), at_trap);
            if(at_trap && !trap(get_pc()))
                t += step_over();
        }
    }
    void interrupt() {
        if(!get_iff1())
            return;
        while(!on_handle_active_int()) {
            if(t >= static_cast<int32_t>(INT_LENGTH_T) || !get_iff1())
                return;
            run_ticks(t + 1);
        }
    }
    // One RZX frame of *fetches* fetches: 0 played as recorded; else 1 the count ends inside an instruction,
    // 2 an IN past the recorded readings, 4 readings left unread (or'ed).
    uint32_t rzx_frame(uint32_t fetches) {
        frame_edges = 0;
        rzx = true;
        rzx_in_read = rzx_in_over = 0;
        run_start = ticks;
        uint32_t done = 0;
        while(done < fetches) {
            uint8_t r = static_cast<uint8_t>(get_r());
            on_step();
            done += (static_cast<uint8_t>(get_r()) - r) & 0x7F;
        }
        rzx = false;
        uint32_t problems = (done > fetches ? 1 : 0) | (rzx_in_over ? 2 : 0) | (rzx_in_read < rzx_in_n ? 4 : 0);
        on_handle_active_int();
        frames++;
        return problems;
    }
    void run_frame() {
        frame_edges = 0;
        interrupt();
        run_ticks(FRAME_T);
        t -= FRAME_T;
        frames++;
    }
};

Spectrum machine;

}  // namespace

#define EXPORT(name) extern "C" __attribute__((export_name(#name)))

EXPORT(ram) uint8_t *ram() { return machine.mem; }
EXPORT(tape) uint8_t *tape() { return machine.tape; }
EXPORT(tape_capacity) uint32_t tape_capacity() { return TAPE_MAX; }
EXPORT(keyboard) uint8_t *keyboard() { return machine.rows; }
EXPORT(edges) uint32_t *edges() { return machine.edge_t; }
EXPORT(frame_edges) uint32_t frame_edges() { return machine.frame_edges < MAX_EDGES ? machine.frame_edges : MAX_EDGES; }

// Power on with *rom* already copied to ram(): every trap set.
EXPORT(power_on) void power_on() {
    const uint16_t traps[] = {LD_BYTES, MAIN_4, S_INKEY, STMT_START};
    for(uint16_t a : traps)
        machine.traps[a] = 1;
}
EXPORT(insert_tape) void insert_tape(uint32_t length) { machine.tape_len = length; machine.tape_pos = 0; machine.tape_block = 0; }
EXPORT(tape_block) uint32_t tape_block() { return machine.tape_block; }
EXPORT(plant_seed) void plant_seed(int32_t seed, int32_t line) { machine.seed = seed & 0xFFFF; machine.seed_line = line; }
// The keys changed (the page wrote keyboard()): INKEY$ polls seen so far no longer count as waiting.
EXPORT(keys_changed) void keys_changed() { machine.inkey_n = 0; }
EXPORT(run_frames) uint32_t run_frames(uint32_t n) {
    for(uint32_t i = 0; i < n; i++)
        machine.run_frame();
    return machine.frames;
}
EXPORT(rzx_inputs) uint8_t *rzx_inputs() { return machine.rzx_in; }
EXPORT(rzx_capacity) uint32_t rzx_capacity() { return sizeof machine.rzx_in; }
// Play one RZX frame whose *inputs* readings are at rzx_inputs(): 0, or the problems (Spectrum::rzx_frame).
EXPORT(rzx_frame) uint32_t rzx_frame(uint32_t fetches, uint32_t inputs) {
    machine.rzx_in_n = inputs;
    return machine.rzx_frame(fetches);
}
// No traps: an RZX is played as recorded, nothing served or planted by the host.
EXPORT(clear_traps) void clear_traps() {
    for(uint32_t a = 0; a < 0x10000; a++)
        machine.traps[a] = 0;
}
EXPORT(watch_statement) void watch_statement(int32_t line, int32_t stmt) { machine.watch_line = line; machine.watch_stmt = stmt; }
EXPORT(watched) uint32_t watched() { return machine.watched; }
EXPORT(watch_deal) void watch_deal(int32_t line, int32_t stmt) { machine.deal_line = line; machine.deal_stmt = stmt; }
EXPORT(dealt) uint32_t dealt() { return machine.dealt; }
EXPORT(frames) uint32_t frames() { return machine.frames; }
EXPORT(statements) uint32_t statements() { return machine.statements; }
EXPORT(border) uint32_t border() { return machine.border; }
EXPORT(ear_edges) uint32_t ear_edges() { return machine.edges; }
EXPORT(ear) uint32_t ear() { return machine.ear; }
// A report printed since the last call (ERR_NR, or 256 for a LOAD past the tape's end), else -1.
EXPORT(take_report) int32_t take_report() { int32_t r = machine.report; machine.report = -1; return r; }
EXPORT(reg) uint32_t reg(uint32_t which) {
    switch(which) {
    case 0: return machine.get_pc();
    case 1: return machine.get_sp();
    case 2: return machine.get_bc();
    case 3: return machine.get_iff1();
    case 4: return machine.t;
    }
    return 0;
}

// The registers for a .z80 (save_registers fills, load_registers takes): AF BC DE HL AF' BC' DE' HL' IX IY
// SP PC I R IFF1 IFF2 IM, then 1 if the CPU is halted (PC already past its HALT, as the core keeps it).
uint16_t registers_buffer[18];
EXPORT(registers) uint16_t *registers() { return registers_buffer; }
EXPORT(save_registers) void save_registers() {
    Spectrum &m = machine;
    uint16_t *r = registers_buffer;
    r[0] = m.get_af(); r[1] = m.get_bc(); r[2] = m.get_de(); r[3] = m.get_hl();
    r[4] = m.get_alt_af(); r[5] = m.get_alt_bc(); r[6] = m.get_alt_de(); r[7] = m.get_alt_hl();
    r[8] = m.get_ix(); r[9] = m.get_iy(); r[10] = m.get_sp(); r[11] = m.get_pc();
    r[12] = m.get_i(); r[13] = m.get_r(); r[14] = m.get_iff1(); r[15] = m.get_iff2(); r[16] = m.get_int_mode();
    r[17] = m.on_is_halted();
}
EXPORT(load_registers) void load_registers() {
    Spectrum &m = machine;
    const uint16_t *r = registers_buffer;
    m.set_af(r[0]); m.set_bc(r[1]); m.set_de(r[2]); m.set_hl(r[3]);
    m.set_alt_af(r[4]); m.set_alt_bc(r[5]); m.set_alt_de(r[6]); m.set_alt_hl(r[7]);
    m.set_ix(r[8]); m.set_iy(r[9]); m.set_sp(r[10]); m.set_pc(r[11]);
    m.set_i(r[12] & 0xFF); m.set_r(r[13] & 0xFF); m.set_iff1(r[14] != 0); m.set_iff2(r[15] != 0);
    m.set_int_mode(r[16]); m.on_set_is_halted(false);
    m.t = 0;
}
EXPORT(set_border) void set_border(uint32_t b) { machine.border = b & 7; }

// What the program waits for at this frame end (machine.py's wait_state): 0 nothing, 1 INPUT,
// 2 the editor, 3 PAUSE 0, 4 an INKEY$ loop (polled in two of the last six frames with no key down).
EXPORT(wait_state) uint32_t wait_state() {
    Spectrum &m = machine;
    if(m.any_key())
        return 0;
    uint16_t pc = m.get_pc(), sp = m.get_sp();
    bool in_wait_key = 0x15DE <= pc && pc < 0x15E6;
    for(unsigned i = 0; i < 12 && !in_wait_key; i += 2)
        in_wait_key = m.word((sp + i) & 0xFFFF) == 0x15E1;
    if(in_wait_key && !(m.mem[23611] & 0x20))
        return (m.mem[23665] & 0x20) ? 1 : 2;
    if(0x1F3D <= pc && pc < 0x1F4F && m.get_bc() == 0)
        return 3;
    unsigned recent = 0;
    for(unsigned i = 0; i < 4 && i < m.inkey_n; i++)
        if(m.inkey[(m.inkey_n - 1 - i) & 3] + 6 >= m.frames)
            recent++;
    return recent >= 2 ? 4 : 0;
}

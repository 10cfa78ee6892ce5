/*
 * dealerbox-sim: runs the reader-board firmware (the real ELF) under simavr with
 *   - UART 0 on a pseudo-terminal (simavr's uart_pty part), so dealerbox reads it as it reads the board;
 *   - a simulated MFRC522 on each card zone's chip-select line (readers 0-13, mfrc522_sim.c) and a simulated
 *     PN5180 with its BUSY line on each chip zone's (readers 14-24, pn5180_sim.c: ISO 15693 stacks);
 *   - the shoe's orientation sensor on PE4/PE5;
 * all driven by a script of tags arriving and leaving, in simulated milliseconds.
 *
 * Usage: dealerbox-sim [--script FILE|-] [--hold] [--realtime] [--until MS] [-v] dealerbox.elf
 *   stdout: "pty <path>" once the port exists, "done <ms>" when the script ends (then it waits for stdin
 *   to close, so the host can read the last bytes before the port goes away).
 *   --hold: wait for one line on stdin before starting the CPU (open the port first: no byte is lost).
 *
 * Script: one event per line, "<ms> <action> [args]"; '#' starts a comment. Readers are numbered as in
 * firmware/src/board.h (0 = shoe, 1-10 = seat1-10, 11 board, 12 burn, 13 muck, 14-23 bet1-10, 24 pot).
 *   <ms> add <reader> <uid-hex>       a tag enters the reader's field (a chip zone's: an 8-byte ICODE UID)
 *   <ms> remove <reader> <uid-hex>    a tag leaves it
 *   <ms> deal up|down <reader> <uid>  a card slides out of the shoe's mouth (sensor sees its face),
 *                                     leaves the shoe's field 30 ms later and lands on <reader>
 *   <ms> pass up|down <reader> <uid>  the same through a shoe read at its mouth: the card is in the shoe
 *                                     reader's field only while it blocks the beam (25 ms), lands 35 ms later
 *   <ms> slide up|down                only the mouth sensor sees a card pass
 *   <ms> mute|unmute <reader>         the reader drops off the bus / comes back
 *   <ms> stick|unstick <reader>       the reader answers registers but never finishes a command
 *   <ms> garble|ungarble <reader>     its tags answer with parity errors only (present but unreadable)
 *   <ms> stall|unstall <reader>       a chip zone's chips begin a reply and never end it (no IRQ comes)
 *   <ms> limit <reader> <n>           a chip zone's reader reads only n chips per field (0: no limit); the
 *                                     replies after the n-th arrive with a bad CRC, as a tall stack's top does
 *   <ms> end                          stop here
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_spi.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "uart_pty.h"

#include "mfrc522_sim.h"
#include "pn5180_sim.h"

#define READERS 25
#define STACK_FIRST 14   /* readers 14-24 are PN5180s (firmware/src/board.h: PN5180_FIRST_READER) */
#define F_CPU 16000000UL
#ifndef BUSY_US
#define BUSY_US 20       /* BUSY high after an instruction frame; the air time it starts ends with the IRQ line */
#endif

static const struct { char port; int bit; } selects[READERS] = {
    {'A', 0}, {'A', 1}, {'A', 2}, {'A', 3}, {'A', 4}, {'A', 5}, {'A', 6}, {'A', 7},
    {'C', 7}, {'C', 6}, {'C', 5}, {'C', 4}, {'C', 3}, {'C', 2}, {'C', 1}, {'C', 0},
    {'D', 7}, {'G', 2}, {'G', 1}, {'G', 0}, {'L', 7}, {'L', 6}, {'L', 5}, {'L', 4}, {'L', 3}};

static const struct { char port; int bit; } busy_pins[READERS - STACK_FIRST] = {
    {'K', 0}, {'K', 1}, {'K', 2}, {'K', 3}, {'K', 4}, {'K', 5}, {'K', 6}, {'K', 7}, {'F', 0}, {'F', 1}, {'F', 2}};

static const struct { char port; int bit; } irq_pins[READERS - STACK_FIRST] = {
    {'F', 3}, {'F', 4}, {'F', 5}, {'F', 6}, {'F', 7}, {'H', 0}, {'H', 1}, {'H', 3}, {'H', 4}, {'H', 5}, {'H', 6}};

static avr_t *avr;
static rc_sim_t chips[READERS];
static pn_sim_t stacks[READERS]; /* used for readers STACK_FIRST.. only */
static avr_irq_t *busy_irq[READERS], *irq_line[READERS];
static int bet_fields_on; /* bet1-bet10 fields on: a sweep runs from the first on to the last off */
static avr_cycle_count_t busy_until[READERS];
static unsigned long busy_violations;
/* The sweep of the bet zones (readers 14-23): from the first bet field on to the last one off, in cycles. */
static avr_cycle_count_t sweep_start, sweep_last, sweep_worst;
static unsigned long sweeps;
static int cs_low[READERS];
static avr_irq_t *mouth_pin, *face_pin;
static int verbose;

enum { EV_ADD, EV_REMOVE, EV_MOUTH, EV_MUTE, EV_UNMUTE, EV_STICK, EV_UNSTICK, EV_GARBLE, EV_UNGARBLE, EV_STALL,
       EV_UNSTALL, EV_LIMIT, EV_END };
typedef struct {
    unsigned long ms;
    int line, kind, reader, value;
    uint8_t uid[10], uid_len;
} event_t;
static event_t *events;
static int n_events, cap_events;

static void die(const char *fmt, const char *a, int line)
{
    fprintf(stderr, "dealerbox-sim: ");
    fprintf(stderr, fmt, a, line);
    fputc('\n', stderr);
    exit(2);
}

static event_t *push(unsigned long ms, int line, int kind)
{
    if (n_events == cap_events) {
        cap_events = cap_events ? cap_events * 2 : 256;
        events = realloc(events, sizeof *events * (size_t)cap_events);
    }
    event_t *e = &events[n_events++];
    memset(e, 0, sizeof *e);
    e->ms = ms;
    e->line = line;
    e->kind = kind;
    return e;
}

static int parse_uid(const char *hex, uint8_t *uid)
{
    size_t n = strlen(hex);
    if (n % 2 || (n != 8 && n != 14 && n != 16 && n != 20))
        return 0;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return 0;
        uid[i] = (uint8_t)v;
    }
    return (int)(n / 2);
}

static int cmp_events(const void *a, const void *b)
{
    const event_t *x = a, *y = b;
    if (x->ms != y->ms)
        return x->ms < y->ms ? -1 : 1;
    return x->line - y->line; /* same time: file order */
}

static void load_script(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f)
        die("cannot open script %s (line %d)", path, 0);
    char buf[512];
    int line = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char action[32] = "", a1[32] = "", a2[32] = "", a3[32] = "";
        unsigned long ms;
        int got = sscanf(buf, "%lu %31s %31s %31s %31s", &ms, action, a1, a2, a3);
        if (got <= 0)
            continue;
        if (got < 2)
            die("%s line %d: expected '<ms> <action> ...'", path, line);
        uint8_t uid[10];
        if (!strcmp(action, "add") || !strcmp(action, "remove")) {
            int n = parse_uid(a2, uid), r = atoi(a1);
            if (got < 4 || !n || r < 0 || r >= READERS)
                die("%s line %d: expected '<ms> add|remove <reader 0-24> <uid: 4, 7, 8 or 10 bytes hex>'", path, line);
            if ((r >= STACK_FIRST) != (n == 8))
                die("%s line %d: readers 14-24 (chip zones, PN5180) read 8-byte ICODE UIDs, readers 0-13 (cards, "
                    "MFRC522) 4-, 7- or 10-byte ones", path, line);
            event_t *e = push(ms, line, action[0] == 'a' ? EV_ADD : EV_REMOVE);
            e->reader = r;
            memcpy(e->uid, uid, (size_t)n);
            e->uid_len = (uint8_t)n;
        } else if (!strcmp(action, "deal")) {
            int n = parse_uid(a3, uid), r = atoi(a2), up = !strcmp(a1, "up");
            if (got < 5 || !n || r < 0 || r >= READERS || (!up && strcmp(a1, "down")))
                die("%s line %d: expected '<ms> deal up|down <reader> <uid>'", path, line);
            push(ms, line, EV_MOUTH)->value = up ? 2 : 1;
            push(ms + 20, line, EV_MOUTH)->value = 0;
            event_t *e = push(ms + 30, line, EV_REMOVE);
            memcpy(e->uid, uid, (size_t)n);
            e->uid_len = (uint8_t)n;
            e->reader = 0;
            e = push(ms + 30, line, EV_ADD);
            memcpy(e->uid, uid, (size_t)n);
            e->uid_len = (uint8_t)n;
            e->reader = r;
        } else if (!strcmp(action, "pass")) {
            int n = parse_uid(a3, uid), r = atoi(a2), up = !strcmp(a1, "up");
            if (got < 5 || !n || r < 0 || r >= STACK_FIRST || (!up && strcmp(a1, "down")))
                die("%s line %d: expected '<ms> pass up|down <reader 0-13> <uid>'", path, line);
            event_t *e = push(ms, line, EV_ADD); /* the card enters the mouth antenna's field with the beam */
            memcpy(e->uid, uid, (size_t)n);
            e->uid_len = (uint8_t)n;
            push(ms, line, EV_MOUTH)->value = up ? 2 : 1;
            push(ms + 25, line, EV_MOUTH)->value = 0;
            e = push(ms + 25, line, EV_REMOVE);
            memcpy(e->uid, uid, (size_t)n);
            e->uid_len = (uint8_t)n;
            e = push(ms + 60, line, EV_ADD);
            memcpy(e->uid, uid, (size_t)n);
            e->uid_len = (uint8_t)n;
            e->reader = r;
        } else if (!strcmp(action, "slide")) {
            if (got < 3 || (strcmp(a1, "up") && strcmp(a1, "down")))
                die("%s line %d: expected '<ms> slide up|down'", path, line);
            push(ms, line, EV_MOUTH)->value = strcmp(a1, "up") ? 1 : 2;
            push(ms + 20, line, EV_MOUTH)->value = 0;
        } else if (!strcmp(action, "mute") || !strcmp(action, "unmute") || !strcmp(action, "stick") ||
                   !strcmp(action, "unstick") || !strcmp(action, "garble") || !strcmp(action, "ungarble")) {
            int r = atoi(a1);
            if (got < 3 || r < 0 || r >= READERS)
                die("%s line %d: expected '<ms> mute|unmute|stick|unstick|garble|ungarble <reader 0-24>'", path, line);
            int kind = !strcmp(action, "mute") ? EV_MUTE : !strcmp(action, "unmute") ? EV_UNMUTE
                     : !strcmp(action, "stick") ? EV_STICK : !strcmp(action, "unstick") ? EV_UNSTICK
                     : !strcmp(action, "garble") ? EV_GARBLE : EV_UNGARBLE;
            push(ms, line, kind)->reader = r;
        } else if (!strcmp(action, "stall") || !strcmp(action, "unstall")) {
            int r = atoi(a1);
            if (got < 3 || r < STACK_FIRST || r >= READERS)
                die("%s line %d: expected '<ms> stall|unstall <reader 14-24>'", path, line);
            push(ms, line, action[0] == 's' ? EV_STALL : EV_UNSTALL)->reader = r;
        } else if (!strcmp(action, "limit")) {
            int r = atoi(a1);
            if (got < 4 || r < STACK_FIRST || r >= READERS)
                die("%s line %d: expected '<ms> limit <reader 14-24> <chips per field, 0: no limit>'", path, line);
            event_t *e = push(ms, line, EV_LIMIT);
            e->reader = r;
            e->value = atoi(a2);
        } else if (!strcmp(action, "end")) {
            push(ms, line, EV_END);
        } else {
            die("%s line %d: unknown action (add, remove, deal, slide, mute, unmute, stick, unstick, garble, "
                "ungarble, stall, unstall, limit, pass, end)",
                path, line);
        }
    }
    if (f != stdin)
        fclose(f);
    qsort(events, (size_t)n_events, sizeof *events, cmp_events);
}

/* Mouth sensor: value 0 = nothing in the mouth, 1 = a card face down (white face reflects), 2 = face up. */
static void set_mouth(int value)
{
    avr_raise_irq(mouth_pin, value ? 0 : 1);
    avr_raise_irq(face_pin, value == 1 ? 0 : 1);
}

static void set_busy(int r, int high)
{
    avr_raise_irq(busy_irq[r], high ? 1 : 0);
}

static avr_cycle_count_t busy_fall(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)when;
    int r = (int)(intptr_t)param;
    if (!stacks[r].busy_stuck)
        set_busy(r, 0);
    return 0;
}

/* The PN5180 model at the current simulated time. */
static pn_sim_t *stack_at(int r)
{
    stacks[r].now_us = avr->cycle / (F_CPU / 1000000UL);
    return &stacks[r];
}

/* The IRQ pin follows the model's enabled IRQ_STATUS bits; an exchange on air raises it when it ends. */
static avr_cycle_count_t irq_update(avr_t *a, avr_cycle_count_t when, void *param);

static void follow_irq(int r)
{
    pn_sim_t *c = stack_at(r);
    avr_raise_irq(irq_line[r], pn_sim_irq(c));
    avr_cycle_timer_cancel(avr, irq_update, (void *)(intptr_t)r);
    if (pn_sim_pending(c))
        avr_cycle_timer_register(avr, (avr_cycle_count_t)(pn_sim_next_us(c) - c->now_us) * (F_CPU / 1000000UL) + 1,
                                 irq_update, (void *)(intptr_t)r);
}

static avr_cycle_count_t irq_update(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)when;
    follow_irq((int)(intptr_t)param);
    return 0;
}

/* A chip zone's reader: the same script actions, on the PN5180 model. */
static void apply_stack(const event_t *e)
{
    pn_sim_t *c = &stacks[e->reader];
    switch (e->kind) {
    case EV_ADD:
        if (!pn_sim_add(c, e->uid))
            fprintf(stderr, "dealerbox-sim: script line %d: reader %d full, chip ignored\n", e->line, e->reader);
        break;
    case EV_REMOVE:
        if (!pn_sim_remove(c, e->uid))
            fprintf(stderr, "dealerbox-sim: script line %d: chip was not on reader %d\n", e->line, e->reader);
        break;
    case EV_MUTE: c->muted = 1; break;
    case EV_UNMUTE: c->muted = 0; break;
    case EV_STICK: c->busy_stuck = 1; set_busy(e->reader, 1); break;
    case EV_UNSTICK: c->busy_stuck = 0; set_busy(e->reader, avr->cycle < busy_until[e->reader]); break;
    case EV_GARBLE: c->garble_all = 1; break;
    case EV_UNGARBLE: c->garble_all = 0; break;
    case EV_STALL: c->stall = 1; break;
    case EV_UNSTALL: c->stall = 0; break;
    case EV_LIMIT: c->limit = e->value; break;
    }
}

static void apply(const event_t *e)
{
    rc_sim_t *c = &chips[e->reader];
    if (e->reader >= STACK_FIRST && e->kind != EV_MOUTH && e->kind != EV_END) {
        apply_stack(e);
        if (verbose)
            fprintf(stderr, "dealerbox-sim: %lu ms: script line %d applied\n", e->ms, e->line);
        return;
    }
    switch (e->kind) {
    case EV_ADD:
        if (!rc_sim_add(c, e->uid, e->uid_len))
            fprintf(stderr, "dealerbox-sim: script line %d: reader %d full, tag ignored\n", e->line, e->reader);
        break;
    case EV_REMOVE:
        if (!rc_sim_remove(c, e->uid, e->uid_len))
            fprintf(stderr, "dealerbox-sim: script line %d: tag was not on reader %d\n", e->line, e->reader);
        break;
    case EV_MOUTH: set_mouth(e->value); break;
    case EV_MUTE: c->muted = 1; break;
    case EV_UNMUTE: c->muted = 0; break;
    case EV_STICK: c->stuck = 1; break;
    case EV_UNSTICK: c->stuck = 0; break;
    case EV_GARBLE: c->garbled = 1; break;
    case EV_UNGARBLE: c->garbled = 0; break;
    }
    if (verbose)
        fprintf(stderr, "dealerbox-sim: %lu ms: script line %d applied\n", e->ms, e->line);
}

/* The one selected chip answers a byte (MISO is pulled up to 0xFF when nobody drives it). */
static uint8_t exchange(uint8_t mosi)
{
    int who = -1, n = 0;
    for (int r = 0; r < READERS; r++)
        if (cs_low[r]) {
            who = r;
            n++;
        }
    if (n > 1)
        fprintf(stderr, "dealerbox-sim: %d chip selects low at once: bus conflict\n", n);
    if (n != 1)
        return 0xFF;
    return who >= STACK_FIRST ? pn_sim_spi(stack_at(who), mosi) : rc_sim_spi(&chips[who], mosi);
}

/* SPI timing. Debian's simavr 1.6 clocks every SPI byte in a fixed 100 us whatever the clock divider:
 * 12 times slower than the board's 1 MHz bus, which made a full shoe take seconds to read. The harness
 * takes over writes to SPDR and finishes each byte after 8 SPI clocks at the rate set in SPCR/SPSR. */
static avr_spi_t *spi;
static uint8_t spi_pending;

static avr_cycle_count_t spi_byte_done(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)when;
    (void)param;
    spi->input_data_register = exchange(spi_pending);
    avr_raise_interrupt(a, &spi->spi); /* SPIF */
    return 0;
}

static void spdr_write(avr_t *a, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)param;
    avr_regbit_clear(a, spi->spi.raised);
    avr_core_watch_write(a, addr, v);
    if (!avr_regbit_get(a, spi->spe) || !avr_regbit_get(a, spi->mstr))
        return;
    static const int dividers[8] = {4, 16, 64, 128, 2, 8, 32, 64}; /* SPI2X:SPR1:SPR0, datasheet table 21-5 */
    int sel = avr_regbit_get(a, spi->spr[0]) | avr_regbit_get(a, spi->spr[1]) << 1 |
              avr_regbit_get(a, spi->spr[2]) << 2;
    spi_pending = v;
    avr_cycle_timer_register(a, (avr_cycle_count_t)(8 * dividers[sel]), spi_byte_done, NULL);
}

static void take_over_spi(void)
{
    avr_io_addr_t io = AVR_DATA_TO_IO(0x4E); /* SPDR on the ATmega2560 */
    spi = (avr_spi_t *)avr->io[io].w.param;
    if (!spi || spi->r_spdr != 0x4E)
        die("simavr's SPI is not where the ATmega2560 has it%s%d", "", 0);
    avr->io[io].w.c = spdr_write;
}

/* NSS of a PN5180 went high: the frame is executed and BUSY rises for the instruction; the RF exchange it
 * may start runs on, and the IRQ line rises when it ends (so the firmware's waits, and the sweep's cycle
 * count, include the air time). */
/* Per bet zone, in the sweep under way and the last one: when its field went off (cycles after the sweep
 * began), its air time and frames: which zone set the sweep's length, and by how much over its air time. */
static avr_cycle_count_t zone_off[READERS], zone_off_last[READERS];
static unsigned long zone_air0[READERS], zone_air[READERS], zone_frames0[READERS], zone_frames[READERS];

static void stack_frame_done(int r)
{
    pn_sim_t *c = stack_at(r);
    int field = c->field;
    pn_sim_release(c);
    c->busy = 0; /* the model's own count of BUSY looks is replaced by simulated time here */
    if (r < STACK_FIRST + 10 && field != c->field) {
        if (c->field && bet_fields_on++ == 0)
            sweep_start = avr->cycle;
        if (c->field) {
            zone_air0[r] = c->air_us;
            zone_frames0[r] = c->frames;
        } else {
            zone_off[r] = avr->cycle - sweep_start;
            zone_air[r] = c->air_us - zone_air0[r];
            zone_frames[r] = c->frames - zone_frames0[r];
        }
        if (!c->field && --bet_fields_on == 0 && sweep_start) {
            memcpy(zone_off_last, zone_off, sizeof zone_off);
            sweep_last = avr->cycle - sweep_start;
            if (sweep_last > sweep_worst)
                sweep_worst = sweep_last;
            sweeps++;
        }
    }
    follow_irq(r);
    if (c->muted)
        return; /* unplugged: BUSY stays pulled low */
    avr_cycle_count_t len = (avr_cycle_count_t)BUSY_US * (F_CPU / 1000000UL);
    busy_until[r] = avr->cycle + len;
    set_busy(r, 1);
    avr_cycle_timer_cancel(avr, busy_fall, (void *)(intptr_t)r);
    avr_cycle_timer_register(avr, len, busy_fall, (void *)(intptr_t)r);
}

static void cs_hook(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    int r = (int)(intptr_t)param;
    int low = value == 0;
    if (r >= STACK_FIRST) {
        if (low && !cs_low[r]) {
            if (avr->cycle < busy_until[r] || stacks[r].busy_stuck)
                busy_violations++; /* the datasheet: never start a frame while BUSY is high */
            pn_sim_select(stack_at(r));
        } else if (!low && cs_low[r]) {
            cs_low[r] = 0;
            stack_frame_done(r);
        }
    } else if (low && !cs_low[r]) {
        rc_sim_begin(&chips[r]);
    }
    cs_low[r] = low;
}

/* simavr's default sleep callback usleeps for the time the core sleeps; skip it to run faster than life. */
static void sleep_skip(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a;
    (void)how_long;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *script = NULL, *elf = NULL;
    int hold = 0, realtime = 0;
    unsigned long until_ms = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--script") && i + 1 < argc)
            script = argv[++i];
        else if (!strcmp(argv[i], "--hold"))
            hold = 1;
        else if (!strcmp(argv[i], "--realtime"))
            realtime = 1;
        else if (!strcmp(argv[i], "--until") && i + 1 < argc)
            until_ms = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else if (argv[i][0] != '-' && !elf)
            elf = argv[i];
        else
            die("usage: dealerbox-sim [--script FILE|-] [--hold] [--realtime] [--until MS] [-v] firmware.elf%s%d",
                "", 0);
    }
    if (!elf)
        die("usage: dealerbox-sim [--script FILE|-] [--hold] [--realtime] [--until MS] [-v] firmware.elf%s%d", "",
            0);
    if (hold && script && !strcmp(script, "-"))
        die("--hold and --script - both want stdin%s%d", "", 0);
    if (script)
        load_script(script);

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw) != 0)
        die("cannot read %s: build it with `make -C firmware` (%d)", elf, 0);
    if (!fw.mmcu[0])
        strcpy(fw.mmcu, "atmega2560");
    if (!fw.frequency)
        fw.frequency = F_CPU;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr)
        die("simavr does not know the MCU %s%d", fw.mmcu, 0);
    avr_init(avr);
    avr_load_firmware(avr, &fw);
    avr->log = verbose ? LOG_WARNING : LOG_ERROR;
    if (!realtime)
        avr->sleep = sleep_skip;

    static uart_pty_t pty;
    uart_pty_init(avr, &pty);
    uart_pty_connect(&pty, '0');

    for (int r = 0; r < READERS; r++) {
        rc_sim_init(&chips[r]);
        pn_sim_init(&stacks[r]);
        if (r >= STACK_FIRST) {
            busy_irq[r] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(busy_pins[r - STACK_FIRST].port),
                                        busy_pins[r - STACK_FIRST].bit);
            irq_line[r] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(irq_pins[r - STACK_FIRST].port),
                                        irq_pins[r - STACK_FIRST].bit);
        }
        avr_irq_t *pin = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(selects[r].port), selects[r].bit);
        avr_irq_register_notify(pin, cs_hook, (void *)(intptr_t)r);
    }
    take_over_spi();
    mouth_pin = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('E'), 4);
    face_pin = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('E'), 5);
    set_mouth(0);

    printf("pty %s\n", pty.port[0].slavename);
    fflush(stdout);
    if (hold) {
        char line[16];
        if (!fgets(line, sizeof line, stdin))
            return 0;
    }

    const unsigned long cycles_per_ms = fw.frequency / 1000;
    int next = 0, state = cpu_Running;
    double t0 = now_s();
    unsigned long end_ms = until_ms;
    for (int i = 0; i < n_events; i++)
        if (events[i].kind == EV_END && (!end_ms || events[i].ms < end_ms))
            end_ms = events[i].ms;
    unsigned long steps = 0;
    while (state != cpu_Done && state != cpu_Crashed) {
        state = avr_run(avr);
        unsigned long ms = (unsigned long)(avr->cycle / cycles_per_ms);
        while (next < n_events && events[next].ms <= ms)
            apply(&events[next++]);
        if (end_ms && ms >= end_ms)
            break;
        if (realtime && (++steps & 0x3FFF) == 0) {
            double ahead = ms / 1000.0 - (now_s() - t0);
            if (ahead > 0.002)
                usleep((useconds_t)(ahead * 1e6));
        }
    }
    double wall = now_s() - t0;
    unsigned long ms = (unsigned long)(avr->cycle / cycles_per_ms);
    unsigned long tx = 0, coll = 0, sel = 0;
    for (int r = 0; r < READERS; r++) {
        tx += chips[r].transceives;
        coll += chips[r].collisions;
        sel += chips[r].selects;
    }
    fprintf(stderr, "dealerbox-sim: %lu ms simulated in %.2f s wall; %lu transceives, %lu collisions, %lu selects%s\n",
            ms, wall, tx, coll, sel, state == cpu_Crashed ? "; CPU CRASHED" : "");
    unsigned long frames = 0, air = 0;
    for (int r = STACK_FIRST; r < READERS; r++) {
        frames += stacks[r].frames;
        air += stacks[r].air_us;
    }
    fprintf(stderr, "dealerbox-sim: pn5180: %lu frames, %lu ms on air, %lu BUSY violations; bet sweeps %lu, "
            "last %llu cycles (%.1f ms), worst %llu cycles (%.1f ms)\n", frames, air / 1000, busy_violations, sweeps,
            (unsigned long long)sweep_last, sweep_last / (F_CPU / 1000.0), (unsigned long long)sweep_worst,
            sweep_worst / (F_CPU / 1000.0));
    fprintf(stderr, "dealerbox-sim: last bet sweep per zone (done at ms / on air ms / frames):");
    for (int r = STACK_FIRST; r < STACK_FIRST + 10; r++)
        fprintf(stderr, " %.1f/%.1f/%lu", zone_off_last[r] / (F_CPU / 1000.0), zone_air[r] / 1000.0, zone_frames[r]);
    fprintf(stderr, "\n");
    usleep(200000); /* let the pty thread hand the last bytes over */
    printf("done %lu\n", ms);
    fflush(stdout);
    char line[16];
    while (fgets(line, sizeof line, stdin))
        ; /* keep the port open until the host closes our stdin (at once if the script came from it) */
    uart_pty_stop(&pty);
    return state == cpu_Crashed ? 1 : 0;
}

/* Host test: the firmware's PN5180 driver against the simulated PN5180 and stacks of ICODE chips: every chip
 * of a 20-stack read exactly once with BUSY honoured, a reply's start and end taken from the IRQ line and a
 * slot nobody answers from the clock, at one SPI frame; a 30-stack on a reader limited to 14 comes out
 * uncertain with 14 proven; garbled replies only come out unreadable; a chip that starts a reply and never
 * ends it times out as unreadable; a module reset mid-scan is a fault, not an empty zone; ten zones scanned
 * side by side take about as long as the slowest one, not the sum. */
#include "../src/hal.h"
#include "../src/pn5180.h"
#include "../src/protocol.h"
#include "../sim/pn5180_sim.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

#define ZONES 10
static pn_sim_t chips[ZONES];
static uint64_t now_us; /* simulated time: every bus byte and every look at a pin costs a little */

static pn_sim_t *at(uint8_t reader)
{
    pn_sim_t *c = &chips[reader % ZONES];
    c->now_us = now_us;
    return c;
}

void spi_select(uint8_t reader) { pn_sim_select(at(reader)); }
void spi_release(uint8_t reader) { pn_sim_release(at(reader)); }
static uint8_t selected_reader;
uint8_t spi_transfer(uint8_t out)
{
    now_us += 3; /* 8 bits at 4 MHz and the loop around them */
    for (uint8_t r = 0; r < ZONES; r++)
        if (chips[r].selected)
            selected_reader = r;
    return pn_sim_spi(at(selected_reader), out);
}
void spi_frame(uint8_t reader, const uint8_t *out, uint8_t *in, uint8_t n)
{
    spi_select(reader);
    for (uint8_t i = 0; i < n; i++) {
        uint8_t b = spi_transfer(out ? out[i] : 0xFF);
        if (in)
            in[i] = b;
    }
    spi_release(reader);
}
uint8_t hal_busy(uint8_t reader) { now_us += 1; return pn_sim_busy(at(reader)); }
uint8_t hal_irq(uint8_t reader) { now_us += 2; return pn_sim_irq(at(reader)); }
uint32_t millis(void) { now_us += 1; return (uint32_t)(now_us / 1000); }
uint8_t millis8(void) { return (uint8_t)millis(); }
uint16_t hal_us4(void) { now_us += 1; return (uint16_t)(now_us / 4); }

static uint8_t stack[128][8];
static uint8_t got[ZONES][PN_MAX_TAGS][8];
static int got_n[ZONES];

static void on_uid(uint8_t reader, const uint8_t *uid)
{
    int z = reader % ZONES;
    if (got_n[z] < PN_MAX_TAGS)
        memcpy(got[z][got_n[z]++], uid, 8);
}

static void make_stack(pn_sim_t *c, int n, unsigned seed, int share_low_bytes)
{
    pn_sim_init(c);
    for (int i = 0; i < n; i++) {
        stack[i][0] = 0xE0, stack[i][1] = 0x04, stack[i][2] = 0x01; /* ICODE SLIX: E0 04 01 ... */
        for (int k = 3; k < 8; k++) {
            seed = seed * 1103515245u + 12345u;
            stack[i][k] = (uint8_t)(seed >> 16);
        }
        if (share_low_bytes) /* only the high bytes differ: the mask search must go deep */
            stack[i][5] = stack[i][6] = stack[i][7] = 0x5A;
        pn_sim_add(c, stack[i]);
    }
}

/* Every UID reported is one of the stack's, and none twice; returns how many of the stack were read. */
static int check_reported(int z, int n, const char *what)
{
    int real = 0;
    for (int i = 0; i < got_n[z]; i++) {
        int hits = 0, dup = 0;
        for (int k = 0; k < n; k++)
            hits += !memcmp(got[z][i], stack[k], 8);
        for (int j = 0; j < i; j++)
            dup += !memcmp(got[z][i], got[z][j], 8);
        CHECK(hits == 1 && !dup, "%s: reported UID %d is not one chip of the stack exactly once", what, i);
        real += hits == 1 && !dup;
    }
    return real;
}

/* Scan zones 0..n-1 side by side, each step moving each scan by one frame; returns the time it took. */
static uint64_t scan_zones(pn_scan_t *scans, int n, uint8_t limit)
{
    for (int z = 0; z < n; z++) {
        got_n[z] = 0;
        CHECK(pn_init((uint8_t)z) == PN_OK, "pn_init zone %d", z);
        pn_scan_begin(&scans[z], (uint8_t)z, limit, on_uid);
    }
    uint64_t t0 = now_us;
    for (int running = n; running;) {
        running = 0;
        for (int z = 0; z < n; z++)
            running += !pn_scan_step(&scans[z]);
    }
    for (int z = 0; z < n; z++) {
        CHECK(scans[z].status == PN_OK, "zone %d: status %d", z, scans[z].status);
        CHECK(!chips[z].field, "zone %d: the field was left on", z);
        CHECK(scans[z].count == got_n[z], "zone %d: count %u, %d UIDs reported", z, scans[z].count, got_n[z]);
    }
    return now_us - t0;
}

static pn_scan_t read_zone(uint8_t limit)
{
    pn_scan_t s;
    scan_zones(&s, 1, limit);
    return s;
}

int main(void)
{
    /* a bet of 20 chips: complete, every chip once, BUSY never violated */
    unsigned long air20 = 0, worst20 = 0;
    uint64_t alone_worst = 0;
    for (unsigned seed = 1; seed <= 50; seed++) {
        make_stack(&chips[0], 20, seed, 0);
        uint64_t t = now_us;
        pn_scan_t inv = read_zone(PN_MAX_TAGS);
        if (now_us - t > alone_worst)
            alone_worst = now_us - t;
        CHECK(inv.state == ZONE_READ_COMPLETE && inv.count == 20, "20-stack seed %u: state %u count %u", seed,
              inv.state, inv.count);
        CHECK(check_reported(0, 20, "20-stack") == 20, "20-stack seed %u: not every chip read", seed);
        CHECK(chips[0].violations == 0, "20-stack: %lu frames started while BUSY was high", chips[0].violations);
        /* a slot nobody answered cost one frame (its EOF), one with a reply at most six more (RX_SOF clear,
         * RX_STATUS, READ_DATA, RX_IRQ clear); a round two TX_CONFIGs; set-up, field and checks 12 */
        unsigned long bound = inv.slots + 6ul * (inv.count + inv.collisions + inv.garbled) + 2ul * inv.rounds + 12;
        CHECK(chips[0].frames <= bound, "20-stack seed %u: %lu frames for %u slots (%u UIDs, %u collisions), "
              "more than %lu", seed, chips[0].frames, inv.slots, inv.count, inv.collisions, bound);
        air20 += chips[0].air_us;
        if (chips[0].air_us > worst20)
            worst20 = chips[0].air_us;
    }
    /* 40 chips whose UIDs differ only in their high bytes: collisions all the way down, still complete */
    make_stack(&chips[0], 40, 77, 1);
    pn_scan_t deep = read_zone(PN_MAX_TAGS);
    CHECK(deep.state == ZONE_READ_COMPLETE && deep.count == 40 && check_reported(0, 40, "deep") == 40,
          "40 chips sharing their low bytes: state %u count %u", deep.state, deep.count);
    CHECK(deep.collisions > 10, "the deep stack caused only %u collisions", deep.collisions);
    /* 30 chips on a reader that reads 14 per field: uncertain, with the 14 proven, never a smaller total */
    make_stack(&chips[0], 30, 5, 0);
    chips[0].limit = 14;
    pn_scan_t over = read_zone(PN_MAX_TAGS);
    CHECK(over.state == ZONE_READ_UNCERTAIN && over.count == 14, "30 on a 14-reader: state %u count %u",
          over.state, over.count);
    check_reported(0, 30, "30 on a 14-reader");
    /* the same stack, the firmware told this reader is proven for 14: it stops there, uncertain */
    make_stack(&chips[0], 30, 5, 0);
    pn_scan_t capped = read_zone(14);
    CHECK(capped.state == ZONE_READ_UNCERTAIN && capped.count == 14, "30 with limit 14: state %u count %u",
          capped.state, capped.count);
    /* exactly 14 on the 14-reader: complete */
    make_stack(&chips[0], 14, 9, 0);
    chips[0].limit = 14;
    pn_scan_t fits = read_zone(14);
    CHECK(fits.state == ZONE_READ_COMPLETE && fits.count == 14, "14 on a 14-reader: state %u count %u",
          fits.state, fits.count);
    /* chips that answer but never read: unreadable, not empty */
    make_stack(&chips[0], 6, 3, 0);
    chips[0].garble_all = 1;
    pn_scan_t bad = read_zone(PN_MAX_TAGS);
    CHECK(bad.state == ZONE_READ_UNREADABLE && bad.count == 0 && bad.garbled > 0, "garbled: state %u count %u",
          bad.state, bad.count);
    /* a chip that begins its reply and never finishes it: no IRQ ever comes; the wait times out, unreadable */
    make_stack(&chips[0], 1, 4, 0);
    chips[0].stall = 1;
    uint64_t t_stall = now_us;
    pn_scan_t stalled = read_zone(PN_MAX_TAGS);
    t_stall = now_us - t_stall;
    CHECK(stalled.state == ZONE_READ_UNREADABLE && stalled.count == 0 && stalled.timeouts == 1,
          "a chip that never answers: state %u count %u timeouts %u", stalled.state, stalled.count, stalled.timeouts);
    /* settling, the request and the reply's SOF (2 ms), the RX wait, margin */
    CHECK(t_stall < (PN_RF_SETTLE_MS + 2 + PN_RX_WAIT_MS + 3) * 1000ULL, "the stalled zone held the scan %llu us",
          (unsigned long long)t_stall);
    /* an empty zone: complete, nothing, one 1-slot probe */
    make_stack(&chips[0], 0, 1, 0);
    pn_scan_t empty = read_zone(PN_MAX_TAGS);
    CHECK(empty.state == ZONE_READ_COMPLETE && empty.count == 0 && empty.rounds == 0 && empty.slots == 1,
          "empty zone: state %u rounds %u slots %u", empty.state, empty.rounds, empty.slots);
    /* a module that lost its set-up (reset by a power dip: IRQ_ENABLE back to 0) raises no IRQ for the
     * replies of its 20 chips: every slot looks empty by the clock, and the scan must not call the zone
     * complete and empty (its chips would leave): the read-back of IRQ_ENABLE at the end fails it */
    make_stack(&chips[0], 20, 1, 0);
    pn_scan_t s;
    CHECK(pn_init(0) == PN_OK, "pn_init");
    chips[0].regs[PN_REG_IRQ_ENABLE] = 0;
    got_n[0] = 0;
    pn_scan_begin(&s, 0, PN_MAX_TAGS, on_uid);
    while (!pn_scan_step(&s))
        ;
    CHECK(s.status == PN_ABSENT && got_n[0] == 0, "a reset module: status %d, %d UIDs", s.status, got_n[0]);

    /* ten zones of 20 chips side by side: the sweep costs about the slowest zone, not the sum of them */
    pn_scan_t ten[ZONES];
    unsigned long air_sum = 0, air_max = 0;
    for (int z = 0; z < ZONES; z++)
        make_stack(&chips[z], 20, 100u + (unsigned)z, 0);
    uint64_t sweep = scan_zones(ten, ZONES, PN_MAX_TAGS);
    for (int z = 0; z < ZONES; z++) {
        CHECK(ten[z].state == ZONE_READ_COMPLETE && ten[z].count == 20, "side by side, zone %d: state %u count %u",
              z, ten[z].state, ten[z].count);
        CHECK(chips[z].violations == 0, "side by side, zone %d: %lu BUSY violations", z, chips[z].violations);
        air_sum += chips[z].air_us;
        if (chips[z].air_us > air_max)
            air_max = chips[z].air_us;
    }
    CHECK(sweep < air_sum / 3, "ten zones side by side took %llu us, the air times add up to %lu us",
          (unsigned long long)sweep, air_sum);
    CHECK(sweep >= air_max, "ten zones took %llu us, less than the slowest zone's air time %lu us",
          (unsigned long long)sweep, air_max);

    /* a module unplugged in the middle of a scan: no IRQ comes, and RX_STATUS reads all ones: absent, not
     * an unreadable zone */
    make_stack(&chips[0], 20, 11, 0);
    CHECK(pn_init(0) == PN_OK, "pn_init");
    got_n[0] = 0;
    pn_scan_begin(&s, 0, PN_MAX_TAGS, on_uid);
    for (int i = 0; i < 40; i++)
        pn_scan_step(&s);
    chips[0].muted = 1;
    while (!pn_scan_step(&s))
        ;
    CHECK(s.status == PN_ABSENT, "a module unplugged mid-scan: status %d", s.status);

    /* no chip on the bus, and a chip whose BUSY never falls */
    pn_sim_init(&chips[0]);
    chips[0].muted = 1;
    CHECK(pn_init(0) == PN_ABSENT, "an absent PN5180 was not reported absent");
    pn_sim_init(&chips[0]);
    chips[0].busy_stuck = 1;
    CHECK(pn_init(0) == PN_BUSY_STUCK, "a PN5180 stuck busy was not noticed");

    printf("driver vs simulated PN5180: 20-stack complete in 50 layouts, mean air time %.1f ms (worst %.1f ms, "
           "worst scan %.1f ms); 40 deep complete (%u collisions); 30 on a 14-reader uncertain with 14 proven; "
           "a stalled reply unreadable after %.1f ms; 10 zones x 20 side by side %.1f ms (slowest zone's air "
           "%.1f ms, sum %.1f ms); %d checks, %d failed\n",
           air20 / 50 / 1000.0, worst20 / 1000.0, alone_worst / 1000.0, deep.collisions, t_stall / 1000.0,
           sweep / 1000.0, air_max / 1000.0, air_sum / 1000.0, checks, failures);
    return failures ? 1 : 0;
}

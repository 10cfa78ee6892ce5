/* Host test: the firmware's PN5180 driver against the simulated PN5180 and a stack of ICODE chips: every
 * chip of a 20-stack read exactly once with BUSY honoured, a 30-stack on a reader limited to 14 comes out
 * uncertain with 14 proven, garbled replies only come out unreadable, and the air time of a 20-stack. */
#include "../src/hal.h"
#include "../src/pn5180.h"
#include "../src/protocol.h"
#include "../sim/pn5180_sim.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

static pn_sim_t chip;
static uint32_t fake_ms;

void spi_select(uint8_t reader) { (void)reader; pn_sim_select(&chip); }
void spi_release(uint8_t reader) { (void)reader; pn_sim_release(&chip); }
uint8_t spi_transfer(uint8_t out) { return pn_sim_spi(&chip, out); }
uint8_t hal_busy(uint8_t reader) { (void)reader; return pn_sim_busy(&chip); }
uint32_t millis(void) { return fake_ms++; } /* time moves on with every look at the clock */

static uint8_t stack[128][8];

static void make_stack(int n, unsigned seed, int share_low_bytes)
{
    pn_sim_init(&chip);
    for (int i = 0; i < n; i++) {
        stack[i][0] = 0xE0, stack[i][1] = 0x04, stack[i][2] = 0x01; /* ICODE SLIX: E0 04 01 ... */
        for (int k = 3; k < 8; k++) {
            seed = seed * 1103515245u + 12345u;
            stack[i][k] = (uint8_t)(seed >> 16);
        }
        if (share_low_bytes) /* only the high bytes differ: the mask search must go deep */
            stack[i][5] = stack[i][6] = stack[i][7] = 0x5A;
        pn_sim_add(&chip, stack[i]);
    }
}

/* Every UID reported is one of the stack's, and none twice; returns how many of the stack were read. */
static int check_reported(const pn_inventory_t *inv, int n, const char *what)
{
    int real = 0;
    for (int i = 0; i < inv->count; i++) {
        int hits = 0, dup = 0;
        for (int k = 0; k < n; k++)
            hits += !memcmp(inv->uid[i], stack[k], 8);
        for (int j = 0; j < i; j++)
            dup += !memcmp(inv->uid[i], inv->uid[j], 8);
        CHECK(hits == 1 && !dup, "%s: reported UID %d is not one chip of the stack exactly once", what, i);
        real += hits == 1 && !dup;
    }
    return real;
}

static pn_inventory_t read_zone(uint8_t limit)
{
    pn_inventory_t inv;
    CHECK(pn_init(0) == PN_OK, "pn_init");
    CHECK(pn_field(0, 1) == PN_OK, "field on");
    CHECK(pn_inventory(0, &inv, limit) == PN_OK, "inventory");
    CHECK(pn_field(0, 0) == PN_OK, "field off");
    return inv;
}

int main(void)
{
    /* a bet of 20 chips: complete, every chip once, BUSY never violated */
    unsigned long air20 = 0, worst20 = 0;
    for (unsigned seed = 1; seed <= 50; seed++) {
        make_stack(20, seed, 0);
        pn_inventory_t inv = read_zone(PN_MAX_TAGS);
        CHECK(inv.state == ZONE_READ_COMPLETE && inv.count == 20, "20-stack seed %u: state %u count %u", seed,
              inv.state, inv.count);
        CHECK(check_reported(&inv, 20, "20-stack") == 20, "20-stack seed %u: not every chip read", seed);
        CHECK(chip.violations == 0, "20-stack: %lu frames started while BUSY was high", chip.violations);
        air20 += chip.air_us;
        if (chip.air_us > worst20)
            worst20 = chip.air_us;
    }
    /* 40 chips whose UIDs differ only in their high bytes: collisions all the way down, still complete */
    make_stack(40, 77, 1);
    pn_inventory_t deep = read_zone(PN_MAX_TAGS);
    CHECK(deep.state == ZONE_READ_COMPLETE && deep.count == 40 && check_reported(&deep, 40, "deep") == 40,
          "40 chips sharing their low bytes: state %u count %u", deep.state, deep.count);
    CHECK(deep.collisions > 10, "the deep stack caused only %u collisions", deep.collisions);
    /* 30 chips on a reader that reads 14 per field: uncertain, with the 14 proven, never a smaller total */
    make_stack(30, 5, 0);
    chip.limit = 14;
    pn_inventory_t over = read_zone(PN_MAX_TAGS);
    CHECK(over.state == ZONE_READ_UNCERTAIN && over.count == 14, "30 on a 14-reader: state %u count %u",
          over.state, over.count);
    check_reported(&over, 30, "30 on a 14-reader");
    /* the same stack, the firmware told this reader is proven for 14: it stops there, uncertain */
    make_stack(30, 5, 0);
    pn_inventory_t capped = read_zone(14);
    CHECK(capped.state == ZONE_READ_UNCERTAIN && capped.count == 14, "30 with limit 14: state %u count %u",
          capped.state, capped.count);
    /* exactly 14 on the 14-reader: complete */
    make_stack(14, 9, 0);
    chip.limit = 14;
    pn_inventory_t fits = read_zone(14);
    CHECK(fits.state == ZONE_READ_COMPLETE && fits.count == 14, "14 on a 14-reader: state %u count %u",
          fits.state, fits.count);
    /* chips that answer but never read: unreadable, not empty */
    make_stack(6, 3, 0);
    chip.garble_all = 1;
    pn_inventory_t bad = read_zone(PN_MAX_TAGS);
    CHECK(bad.state == ZONE_READ_UNREADABLE && bad.count == 0 && bad.garbled > 0, "garbled: state %u count %u",
          bad.state, bad.count);
    /* an empty zone: complete, nothing */
    make_stack(0, 1, 0);
    pn_inventory_t empty = read_zone(PN_MAX_TAGS);
    CHECK(empty.state == ZONE_READ_COMPLETE && empty.count == 0 && empty.rounds == 1, "empty zone");
    /* no chip on the bus, and a chip whose BUSY never falls */
    pn_sim_init(&chip);
    chip.muted = 1;
    CHECK(pn_init(0) == PN_ABSENT, "an absent PN5180 was not reported absent");
    pn_sim_init(&chip);
    chip.busy_stuck = 1;
    CHECK(pn_init(0) == PN_BUSY_STUCK, "a PN5180 stuck busy was not noticed");

    printf("driver vs simulated PN5180: 20-stack complete in 50 layouts, mean air time %.1f ms (worst %.1f ms); "
           "40 deep complete (%u collisions); 30 on a 14-reader uncertain with 14 proven; %d checks, %d failed\n",
           air20 / 50 / 1000.0, worst20 / 1000.0, deep.collisions, checks, failures);
    return failures ? 1 : 0;
}

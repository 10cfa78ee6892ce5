/* Host test: the firmware's MFRC522 driver against the simulated reader and tags (no AVR involved):
 * every tag in a crowded field is found exactly once per field cycle, for 4-, 7- and 10-byte UIDs. */
#include "../src/hal.h"
#include "../src/mfrc522.h"
#include "../sim/mfrc522_sim.h"

#include <stdio.h>
#include <string.h>

static rc_sim_t chip;
static int selected;
static uint32_t fake_ms;

void spi_select(uint8_t reader) { (void)reader; selected = 1; rc_sim_begin(&chip); }
void spi_release(uint8_t reader) { (void)reader; selected = 0; }
uint8_t spi_transfer(uint8_t out) { return selected ? rc_sim_spi(&chip, out) : 0xFF; }
uint32_t millis(void) { return fake_ms++; } /* time moves on with every look at the clock */

static int failures;

static int inventory(uint8_t found[][10], uint8_t *lens)
{
    int n = 0;
    rc_antenna(0, 1);
    for (int i = 0; i < 200; i++) {
        uint8_t len = 0;
        rc_status_t st = rc_next_tag(0, found[n], &len);
        if (st == RC_NO_TAG)
            break;
        if (st != RC_OK) {
            fprintf(stderr, "FAIL: rc_next_tag gave %d after %d tags\n", st, n);
            failures++;
            continue;
        }
        lens[n++] = len;
    }
    rc_antenna(0, 0);
    return n;
}

int main(void)
{
    rc_sim_init(&chip);
    if (!rc_init(0)) {
        fprintf(stderr, "FAIL: rc_init on a present reader\n");
        return 1;
    }
    uint8_t uids[100][10], lens[100];
    unsigned seed = 12345;
    for (int i = 0; i < 100; i++) {
        lens[i] = i % 10 == 0 ? 4 : i % 10 == 1 ? 10 : 7;
        for (int k = 0; k < lens[i]; k++) {
            seed = seed * 1103515245u + 12345u;
            uids[i][k] = (uint8_t)(seed >> 16);
        }
        if (lens[i] != 4)
            uids[i][0] = 0x04; /* NXP: every 7- and 10-byte UID starts alike, so collisions go deep */
        rc_sim_add(&chip, uids[i], lens[i]);
    }
    for (int round = 0; round < 2; round++) {
        uint8_t found[200][10], flen[200];
        int n = inventory(found, flen);
        int missing = 0;
        for (int i = 0; i < 100; i++) {
            int hit = 0;
            for (int j = 0; j < n; j++)
                hit += flen[j] == lens[i] && !memcmp(found[j], uids[i], lens[i]);
            if (hit != 1)
                missing++;
        }
        if (n != 100 || missing) {
            fprintf(stderr, "FAIL: round %d found %d tags, %d of 100 not exactly once\n", round, n, missing);
            failures++;
        }
    }
    /* every tag of the field went wake-up, anticollision, SELECT, HLTA exactly once in the field cycle: the
     * poll ends when nobody answers REQA, which needs every tag halted, and no halted tag was woken again
     * (REQA, not WUPA: WUPA would wake the halted ones and the loop would never hear silence) */
    {
        uint8_t found[200][10], flen[200];
        for (int i = 0; i < chip.n_tags; i++)
            chip.tags[i].wakes = chip.tags[i].wakes_from_halt = chip.tags[i].selected = chip.tags[i].halts = 0;
        inventory(found, flen);
        int wrong = 0;
        for (int i = 0; i < chip.n_tags; i++) {
            sim_tag_t *t = &chip.tags[i];
            wrong += t->wakes < 1 || t->wakes_from_halt || t->selected != 1 || t->halts != 1;
        }
        if (wrong) {
            fprintf(stderr, "FAIL: %d tags not woken, selected and halted exactly once in a field cycle\n", wrong);
            failures++;
        }
    }
    rc_sim_remove(&chip, uids[5], lens[5]);
    uint8_t found[200][10], flen[200];
    if (inventory(found, flen) != 99) {
        fprintf(stderr, "FAIL: a removed tag was still found\n");
        failures++;
    }
    chip.muted = 1;
    if (rc_version(0) != 0xFF || rc_init(0)) {
        fprintf(stderr, "FAIL: a muted reader looked present\n");
        failures++;
    }
    chip.muted = 0;
    chip.stuck = 1;
    uint8_t uid[10], len;
    if (rc_next_tag(0, uid, &len) != RC_STUCK) {
        fprintf(stderr, "FAIL: a stuck reader was not noticed\n");
        failures++;
    }
    printf("driver vs simulated MFRC522: 100 tags (4/7/10-byte UIDs), %lu transceives, %lu collisions resolved, "
           "%d failed\n", chip.transceives, chip.collisions, failures);
    return failures ? 1 : 0;
}

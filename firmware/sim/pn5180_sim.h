/*
 * A simulated NXP PN5180 and the ISO 15693 chips in its field, at the level of its host interface: SPI
 * frames under NSS, the BUSY line (high for a while after every frame; a frame started while BUSY is high
 * is counted as a protocol violation), register reads and writes, SEND_DATA / READ_DATA, RF on/off, and
 * the tags' side of INVENTORY (1 or 16 slots, mask, slot chosen by the UID's next 4 bits, a collision when two
 * chips share a slot) and STAY QUIET.
 *
 * `limit` models a reader that reads only so many chips per field: after that many replies, every
 * further reply arrives garbled (a CRC error), as the top of a tall stack does on a weak antenna.
 * `air_us` adds up the air time of each exchange from the ISO 15693 high-data-rate timings
 * (hardware/chip-stacks.md): request 1.6 ms, a slot with a reply 4.4 ms, an empty slot 0.65 ms,
 * STAY QUIET 4.0 ms.
 */
#ifndef DEALERBOX_PN5180_SIM_H
#define DEALERBOX_PN5180_SIM_H

#include <stdint.h>

#define PN_SIM_MAX_TAGS 128

typedef struct {
    uint64_t uid[PN_SIM_MAX_TAGS]; /* UID as a number: the least significant byte goes first on air */
    uint8_t quiet[PN_SIM_MAX_TAGS];
    int n_tags;
    int limit;       /* replies per field before every reply is garbled; 0: no limit */
    int garble_all;  /* every reply garbled: an unreadable zone (damaged inlays, detuned antenna) */
    int muted;       /* not on the bus: BUSY never rises */
    int busy_stuck;  /* BUSY stays high */
    /* host interface */
    int busy;        /* polls of BUSY left high */
    int selected, answer_pending;
    uint8_t buf[64], n_buf;
    uint8_t answer[64], n_answer;
    uint32_t regs[64];
    int field, configured;
    /* the inventory under way */
    int inventory, one_slot, slot, mask_bits, replies;
    uint64_t mask;
    uint8_t rx[16];
    /* statistics */
    unsigned long frames, violations, air_us;
} pn_sim_t;

void pn_sim_init(pn_sim_t *c);
void pn_sim_select(pn_sim_t *c);            /* NSS low */
uint8_t pn_sim_spi(pn_sim_t *c, uint8_t mosi);
void pn_sim_release(pn_sim_t *c);           /* NSS high: the frame is executed */
uint8_t pn_sim_busy(pn_sim_t *c);           /* one look at the BUSY line */
int pn_sim_add(pn_sim_t *c, const uint8_t uid_msb_first[8]);
int pn_sim_remove(pn_sim_t *c, const uint8_t uid_msb_first[8]); /* 0 if it was not in the field */

#endif

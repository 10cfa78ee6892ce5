/*
 * A simulated NXP PN5180 and the ISO 15693 chips in its field, at the level of its host interface: SPI
 * frames under NSS, the BUSY line (high for a while after every frame; a frame started while BUSY is high
 * is counted as a protocol violation), register reads and writes, SEND_DATA / READ_DATA, RF on/off, and
 * the tags' side of INVENTORY (1 or 16 slots, mask, slot chosen by the UID's next 4 bits, a collision when two
 * chips share a slot) and STAY QUIET.
 *
 * Time: the owner sets `now_us` before every call. An exchange's result (RX_STATUS, and RX_IRQ or TIMER1_IRQ
 * in IRQ_STATUS) appears only once its air time has passed; a reply's RX_SOF appears when its SOF is heard
 * (PN_SIM_SOF_US after our frame, or after the request's own air time); the IRQ line (pn_sim_irq) mirrors
 * the enabled IRQ_STATUS bits, as the chip's IRQ pin does; BUSY covers the instruction only, not the air.
 * SEND_DATA does nothing unless SYSTEM_CONFIG holds TRANSCEIVE; TIMER1 (the empty-slot window) fires only
 * if the driver configured it to start at the end of transmission.
 *
 * `stall` models a chip that begins a reply and never ends it (RX_SOF_DET, then nothing): no IRQ comes.
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
/* A slot with a reply: t1 (320 us), then the chip's SOF (56.6 us) is heard; the whole reply is over at 4.4 ms. */
#define PN_SIM_SOF_US 380
#define PN_SIM_REPLY_US 4400

typedef struct {
    uint64_t uid[PN_SIM_MAX_TAGS]; /* UID as a number: the least significant byte goes first on air */
    uint8_t quiet[PN_SIM_MAX_TAGS];
    int n_tags;
    int limit;       /* replies per field before every reply is garbled; 0: no limit */
    int garble_all;  /* every reply garbled: an unreadable zone (damaged inlays, detuned antenna) */
    int muted;       /* not on the bus: BUSY never rises */
    int busy_stuck;  /* BUSY stays high */
    int stall;       /* replies begin and never end: neither RX_IRQ nor TIMER1_IRQ */
    uint64_t now_us, done_at_us; /* now, and when the exchange under way ends */
    uint64_t sof_at_us; int sof_pending; /* when its reply's SOF is heard (RX_SOF_IRQ), if one comes */
    uint32_t irq_pending, rx_pending; /* IRQ_STATUS bits and RX_STATUS it ends with */
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
uint8_t pn_sim_irq(pn_sim_t *c);            /* the IRQ line at now_us */
int pn_sim_pending(const pn_sim_t *c);      /* an exchange is on air (it ends at done_at_us) */
uint64_t pn_sim_next_us(const pn_sim_t *c); /* when the IRQ line may next change: the reply's SOF, or the end */
int pn_sim_add(pn_sim_t *c, const uint8_t uid_msb_first[8]);
int pn_sim_remove(pn_sim_t *c, const uint8_t uid_msb_first[8]); /* 0 if it was not in the field */

#endif

/* The simulated PN5180: see pn5180_sim.h. */
#include "pn5180_sim.h"

#include <string.h>

#include "../src/pn5180.h"

#define BUSY_POLLS 2 /* BUSY stays high this many looks after a frame */

void pn_sim_init(pn_sim_t *c)
{
    memset(c, 0, sizeof *c);
}

int pn_sim_add(pn_sim_t *c, const uint8_t uid_msb_first[8])
{
    if (c->n_tags == PN_SIM_MAX_TAGS)
        return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | uid_msb_first[i];
    c->uid[c->n_tags] = v;
    c->quiet[c->n_tags++] = 0;
    return 1;
}

int pn_sim_remove(pn_sim_t *c, const uint8_t uid_msb_first[8])
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | uid_msb_first[i];
    for (int i = 0; i < c->n_tags; i++)
        if (c->uid[i] == v) {
            c->n_tags--;
            c->uid[i] = c->uid[c->n_tags];
            c->quiet[i] = c->quiet[c->n_tags];
            return 1;
        }
    return 0;
}

/* The exchange on air has ended by now: its result becomes visible. */
static void tick(pn_sim_t *c)
{
    if (c->sof_pending && c->now_us >= c->sof_at_us) { /* a reply has begun: RX_SOF_DET */
        c->regs[PN_REG_IRQ_STATUS] |= PN_IRQ_RX_SOF;
        c->sof_pending = 0;
    }
    if (c->irq_pending && c->now_us >= c->done_at_us) {
        c->regs[PN_REG_IRQ_STATUS] |= c->irq_pending;
        c->regs[PN_REG_RX_STATUS] = c->rx_pending;
        c->irq_pending = 0;
    }
}

uint8_t pn_sim_irq(pn_sim_t *c)
{
    tick(c);
    return !c->muted && (c->regs[PN_REG_IRQ_STATUS] & c->regs[PN_REG_IRQ_ENABLE]) != 0;
}

int pn_sim_pending(const pn_sim_t *c)
{
    return c->irq_pending != 0 || c->sof_pending;
}

uint64_t pn_sim_next_us(const pn_sim_t *c)
{
    return c->sof_pending && (!c->irq_pending || c->sof_at_us < c->done_at_us) ? c->sof_at_us : c->done_at_us;
}

/* The exchange started now ends after `air_us` with these IRQ bits and RX_STATUS. */
static void on_air(pn_sim_t *c, unsigned long air_us, uint32_t irq, uint32_t rx)
{
    c->air_us += air_us;
    c->done_at_us = c->now_us + air_us;
    c->irq_pending = irq;
    c->rx_pending = rx;
    c->sof_pending = 0;
}

/* The exchange started now is a reply (or a collision) after `lead_us` of our frame: its SOF is heard t1 and
 * the chip's SOF later. */
static void reply_on_air(pn_sim_t *c, unsigned long lead_us, uint32_t rx)
{
    on_air(c, lead_us + PN_SIM_REPLY_US, PN_IRQ_RX, rx);
    c->sof_at_us = c->now_us + lead_us + PN_SIM_SOF_US;
    c->sof_pending = 1;
}

/* Nobody answered: TIMER1 (if the driver set it to start at the end of our frame) ends the wait. */
static uint32_t no_reply_irq(const pn_sim_t *c)
{
    uint32_t t = c->regs[PN_REG_TIMER1_CONFIG];
    return (t & PN_TIMER1_ENABLE) && (t & PN_TIMER1_START_ON_TX_END) ? PN_IRQ_TIMER1 : 0;
}

uint8_t pn_sim_busy(pn_sim_t *c)
{
    if (c->busy_stuck)
        return 1;
    if (c->busy > 0) {
        c->busy--;
        return 1;
    }
    return 0;
}

void pn_sim_select(pn_sim_t *c)
{
    tick(c);
    if (c->busy > 0 || c->busy_stuck)
        c->violations++; /* the datasheet: never start a frame while BUSY is high */
    c->selected = 1;
    c->n_buf = 0;
}

uint8_t pn_sim_spi(pn_sim_t *c, uint8_t mosi)
{
    tick(c);
    if (c->muted || !c->selected)
        return 0xFF;
    uint8_t i = c->n_buf;
    if (c->n_buf < sizeof c->buf)
        c->buf[c->n_buf++] = mosi;
    return c->answer_pending && i < c->n_answer ? c->answer[i] : 0xFF;
}

static void answer(pn_sim_t *c, const uint8_t *data, int n)
{
    memcpy(c->answer, data, (size_t)n);
    c->n_answer = (uint8_t)n;
    c->answer_pending = 1;
}

/* What the current inventory slot receives; `lead_us` is the air time of the request before it. */
static void slot_result(pn_sim_t *c, unsigned long lead_us)
{
    int who = -1, n = 0;
    uint64_t mask_of = c->mask_bits ? (c->mask_bits >= 64 ? ~0ULL : (1ULL << c->mask_bits) - 1) : 0;
    for (int i = 0; i < c->n_tags; i++) {
        if (c->quiet[i] || (c->uid[i] & mask_of) != (c->mask & mask_of))
            continue;
        if (c->one_slot || (int)((c->uid[i] >> c->mask_bits) & 0xF) == c->slot) {
            who = i;
            n++;
        }
    }
    if (n == 0) {
        on_air(c, lead_us + 650, no_reply_irq(c), 0);
        return;
    }
    if (c->stall) { /* the reply's SOF, then nothing: the receiver waits for ever */
        c->irq_pending = 0;
        c->sof_at_us = c->now_us + lead_us + PN_SIM_SOF_US;
        c->sof_pending = 1;
        c->air_us += lead_us + PN_SIM_REPLY_US;
        return;
    }
    if (n > 1) {
        reply_on_air(c, lead_us, PN_RX_COLLISION | 10);
        return;
    }
    c->replies++;
    if (c->garble_all || (c->limit && c->replies > c->limit)) {
        reply_on_air(c, lead_us, PN_RX_INTEGRITY_ERROR | 10);
        return;
    }
    c->rx[0] = 0x00; /* response flags: no error */
    c->rx[1] = 0x00; /* DSFID */
    for (int k = 0; k < 8; k++)
        c->rx[2 + k] = (uint8_t)(c->uid[who] >> (8 * k));
    reply_on_air(c, lead_us, 10);
}

static void send_data(pn_sim_t *c, const uint8_t *d, int n)
{
    c->regs[PN_REG_RX_STATUS] = 0;
    c->irq_pending = 0;
    c->sof_pending = 0;
    if (!c->field || !c->configured || (c->regs[PN_REG_SYSTEM_CONFIG] & PN_CMD_MASK) != PN_CMD_TRANSCEIVE)
        return; /* not transceiving: nothing goes on air, no IRQ ever comes */
    if (n == 0) { /* an EOF: the next slot of the inventory under way */
        if (c->inventory && !c->one_slot && c->slot < 15) {
            c->slot++;
            slot_result(c, 0);
        } else {
            on_air(c, 650, no_reply_irq(c), 0);
        }
        return;
    }
    c->inventory = 0;
    if (n >= 3 && d[1] == ISO15693_INVENTORY && (d[0] & 0x04)) {
        c->one_slot = (d[0] & 0x20) != 0; /* Nb_slots flag: 1 slot instead of 16 */
        c->mask_bits = d[2];
        c->mask = 0;
        for (int k = 0; k < (c->mask_bits + 7) / 8 && 3 + k < n; k++)
            c->mask |= (uint64_t)d[3 + k] << (8 * k);
        c->inventory = 1;
        c->slot = 0;
        slot_result(c, 1600);
    } else if (n == 10 && d[1] == ISO15693_STAY_QUIET && (d[0] & 0x20)) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++)
            v |= (uint64_t)d[2 + k] << (8 * k);
        for (int i = 0; i < c->n_tags; i++)
            if (c->uid[i] == v)
                c->quiet[i] = 1;
        on_air(c, 4000, no_reply_irq(c), 0); /* no reply to a STAY QUIET: the window runs out */
    }
}

void pn_sim_release(pn_sim_t *c)
{
    if (!c->selected)
        return;
    tick(c);
    c->selected = 0;
    if (c->muted)
        return;
    c->frames++;
    c->busy = BUSY_POLLS;
    if (c->answer_pending) { /* this frame clocked out the previous instruction's answer */
        c->answer_pending = 0;
        return;
    }
    const uint8_t *b = c->buf;
    uint32_t v = c->n_buf >= 6 ? (uint32_t)b[2] | (uint32_t)b[3] << 8 | (uint32_t)b[4] << 16 | (uint32_t)b[5] << 24 : 0;
    switch (c->n_buf ? b[0] : 0xFF) {
    case PN_WRITE_REGISTER:
        if ((b[1] & 63) == PN_REG_IRQ_CLEAR)
            c->regs[PN_REG_IRQ_STATUS] &= ~v; /* write 1 to clear */
        else
            c->regs[b[1] & 63] = v;
        break;
    case PN_WRITE_REGISTER_OR_MASK: c->regs[b[1] & 63] |= v; break;
    case PN_WRITE_REGISTER_AND_MASK: c->regs[b[1] & 63] &= v; break;
    case PN_READ_REGISTER: {
        uint32_t r = c->regs[b[1] & 63];
        uint8_t a[4] = {(uint8_t)r, (uint8_t)(r >> 8), (uint8_t)(r >> 16), (uint8_t)(r >> 24)};
        answer(c, a, 4);
        break;
    }
    case PN_READ_DATA: answer(c, c->rx, (int)(c->regs[PN_REG_RX_STATUS] & PN_RX_BYTES_MASK)); break;
    case PN_SEND_DATA: send_data(c, b + 2, c->n_buf - 2); break;
    case PN_LOAD_RF_CONFIG: c->configured = b[1] == PN_RF_ISO15693_TX && b[2] == PN_RF_ISO15693_RX; break;
    case PN_RF_ON:
        c->field = 1;
        c->replies = 0;
        memset(c->quiet, 0, sizeof c->quiet); /* power-up: every chip ready again */
        break;
    case PN_RF_OFF: c->field = 0; c->inventory = 0; c->irq_pending = 0; c->sof_pending = 0; break;
    default: break;
    }
}

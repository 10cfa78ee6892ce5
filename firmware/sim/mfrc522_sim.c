/* Simulated MFRC522 + type A tags: see mfrc522_sim.h. Register numbers follow the NXP datasheet. */
#include "mfrc522_sim.h"

#include <string.h>

enum {
    R_COMMAND = 0x01, R_COM_IRQ = 0x04, R_ERROR = 0x06, R_FIFO_DATA = 0x09, R_FIFO_LEVEL = 0x0A,
    R_CONTROL = 0x0C, R_BIT_FRAMING = 0x0D, R_COLL = 0x0E, R_TX_CONTROL = 0x14, R_VERSION = 0x37
};
enum { CMD_IDLE = 0x00, CMD_TRANSCEIVE = 0x0C, CMD_SOFT_RESET = 0x0F };

uint16_t rc_sim_crc_a(const uint8_t *data, int len)
{
    uint16_t crc = 0x6363;
    for (int i = 0; i < len; i++) {
        uint8_t b = data[i] ^ (uint8_t)crc;
        b ^= (uint8_t)(b << 4);
        crc = (uint16_t)((crc >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return crc;
}

static void reset_regs(rc_sim_t *c)
{
    memset(c->regs, 0, sizeof c->regs);
    c->regs[R_COMMAND] = 0x20; /* RcvOff clear, PowerDown clear: ready at once */
    c->regs[R_COLL] = 0x80;
    c->regs[R_TX_CONTROL] = 0x80;
    c->regs[R_VERSION] = 0x92;
    c->fifo_len = c->fifo_rd = 0;
}

void rc_sim_init(rc_sim_t *c)
{
    memset(c, 0, sizeof *c);
    reset_regs(c);
    c->first = 1;
}

static int field_on(const rc_sim_t *c)
{
    return (c->regs[R_TX_CONTROL] & 0x03) != 0;
}

int rc_sim_add(rc_sim_t *c, const uint8_t *uid, uint8_t len)
{
    if (c->n_tags >= SIM_MAX_TAGS || (len != 4 && len != 7 && len != 10))
        return 0;
    sim_tag_t *t = &c->tags[c->n_tags++];
    memcpy(t->uid, uid, len);
    t->len = len;
    t->state = TAG_IDLE; /* powers up idle when the field reaches it */
    t->level = 0;
    return 1;
}

int rc_sim_remove(rc_sim_t *c, const uint8_t *uid, uint8_t len)
{
    for (int i = 0; i < c->n_tags; i++)
        if (c->tags[i].len == len && !memcmp(c->tags[i].uid, uid, len)) {
            c->tags[i] = c->tags[--c->n_tags];
            return 1;
        }
    return 0;
}

/* The 5 bytes (4 UID bytes or cascade tag + 3, then BCC) a tag sends at cascade level `level`. */
static int cascade_bytes(const sim_tag_t *t, int level, uint8_t out[5])
{
    int levels = t->len == 4 ? 1 : t->len == 7 ? 2 : 3;
    if (level >= levels)
        return 0;
    if (level == levels - 1) {
        memcpy(out, t->uid + 3 * level, 4);
    } else {
        out[0] = 0x88;
        memcpy(out + 1, t->uid + 3 * level, 3);
    }
    out[4] = out[0] ^ out[1] ^ out[2] ^ out[3];
    return level == levels - 1 ? 2 : 1; /* 2: this level completes the UID */
}

static int bit_of(const uint8_t *b, int i)
{
    return (b[i / 8] >> (i % 8)) & 1;
}

static void answer(rc_sim_t *c, const uint8_t *resp, int len, int coll_pos)
{
    memcpy(c->fifo, resp, (size_t)len);
    c->fifo_len = (uint8_t)len;
    c->fifo_rd = 0;
    c->regs[R_COM_IRQ] |= 0x20 | 0x10 * 0; /* RxIRq */
    c->regs[R_ERROR] = coll_pos ? 0x08 : 0x00;
    c->regs[R_COLL] = coll_pos ? (uint8_t)(coll_pos & 0x1F) : 0x20;
    c->regs[R_CONTROL] = 0;
}

static void no_answer(rc_sim_t *c)
{
    c->fifo_len = c->fifo_rd = 0;
    c->regs[R_COM_IRQ] |= 0x01; /* TimerIRq: the 2 ms timeout ran out */
    c->regs[R_ERROR] = 0;
}

static void transceive(rc_sim_t *c)
{
    uint8_t tx[64];
    int n = c->fifo_len - c->fifo_rd;
    memcpy(tx, c->fifo + c->fifo_rd, (size_t)n);
    c->fifo_len = c->fifo_rd = 0;
    int tx_last = c->regs[R_BIT_FRAMING] & 0x07, rx_align = (c->regs[R_BIT_FRAMING] >> 4) & 0x07;
    c->transceives++;
    if (c->stuck)
        return; /* no IRQ ever: the firmware's watchdog on the command must notice */
    if (!field_on(c) || n == 0) {
        no_answer(c);
        return;
    }
    if (c->garbled && c->n_tags > 0) { /* something answers, nothing reads */
        uint8_t noise[2] = {0x5A, 0xA5};
        answer(c, noise, 2, 0);
        c->regs[R_ERROR] = 0x02; /* ParityErr */
        return;
    }
    if (n == 1 && tx_last == 7 && (tx[0] == 0x26 || tx[0] == 0x52)) { /* REQA / WUPA */
        uint8_t atqa[2] = {0, 0};
        int k = 0;
        for (int i = 0; i < c->n_tags; i++) {
            sim_tag_t *t = &c->tags[i];
            if (t->state == TAG_IDLE || (tx[0] == 0x52 && t->state == TAG_HALT)) {
                t->wakes++;
                t->wakes_from_halt += t->state == TAG_HALT;
                t->state = TAG_READY;
                t->level = 0;
                atqa[0] |= t->len == 4 ? 0x04 : t->len == 7 ? 0x44 : 0x84;
                k++;
            }
        }
        if (k)
            answer(c, atqa, 2, 0);
        else
            no_answer(c);
        return;
    }
    if (n == 4 && tx[0] == 0x50 && tx[1] == 0x00) { /* HLTA: never answered */
        if (rc_sim_crc_a(tx, 2) == (uint16_t)(tx[2] | (tx[3] << 8)))
            for (int i = 0; i < c->n_tags; i++)
                if (c->tags[i].state == TAG_ACTIVE) {
                    c->tags[i].state = TAG_HALT;
                    c->tags[i].halts++;
                }
        no_answer(c);
        return;
    }
    if (n >= 2 && (tx[0] == 0x93 || tx[0] == 0x95 || tx[0] == 0x97)) {
        int level = (tx[0] - 0x93) / 2, nvb = tx[1];
        if (nvb == 0x70) { /* SELECT: the whole 40 bits, CRC_A protected */
            if (n != 9 || rc_sim_crc_a(tx, 7) != (uint16_t)(tx[7] | (tx[8] << 8))) {
                no_answer(c);
                return;
            }
            int found = 0, complete = 0;
            for (int i = 0; i < c->n_tags; i++) {
                sim_tag_t *t = &c->tags[i];
                if (t->state != TAG_READY || t->level != level)
                    continue;
                uint8_t cb[5];
                int kind = cascade_bytes(t, level, cb);
                if (kind && !memcmp(cb, tx + 2, 5)) {
                    found++;
                    complete = kind == 2;
                    t->level = (uint8_t)(level + 1);
                    if (complete) {
                        t->state = TAG_ACTIVE;
                        t->selected++;
                    }
                } else {
                    t->state = TAG_IDLE; /* not chosen: back to idle until the next REQA */
                }
            }
            if (!found) {
                no_answer(c);
                return;
            }
            c->selects++;
            uint8_t sak[3] = {(uint8_t)(complete ? 0x00 : 0x04), 0, 0};
            uint16_t crc = rc_sim_crc_a(sak, 1);
            sak[1] = (uint8_t)crc;
            sak[2] = (uint8_t)(crc >> 8);
            answer(c, sak, 3, 0);
            return;
        }
        /* anticollision: tags whose first `known` bits match answer with the rest, bit by bit */
        int nbytes = (nvb >> 4) - 2, nbits = nvb & 0x0F, known = nbytes * 8 + nbits;
        if (nbytes < 0 || known > 32 || n != 2 + nbytes + (nbits ? 1 : 0) || nbits != tx_last) {
            no_answer(c);
            return;
        }
        uint8_t cbs[SIM_MAX_TAGS][5];
        int who[SIM_MAX_TAGS], k = 0;
        for (int i = 0; i < c->n_tags; i++) {
            sim_tag_t *t = &c->tags[i];
            if (t->state != TAG_READY || t->level != level || !cascade_bytes(t, level, cbs[k]))
                continue;
            int match = 1;
            for (int b = 0; b < known && match; b++)
                match = bit_of(cbs[k], b) == bit_of(tx + 2, b);
            if (match)
                who[k++] = i;
        }
        (void)who;
        if (!k) {
            no_answer(c);
            return;
        }
        uint8_t bits[5] = {0};
        int coll_at = -1;
        for (int b = known; b < 40; b++) {
            int ones = 0;
            for (int j = 0; j < k; j++)
                ones += bit_of(cbs[j], b);
            if (ones && ones < k && coll_at < 0)
                coll_at = b;
            if (ones)
                bits[b / 8] |= (uint8_t)(1 << (b % 8)); /* colliding bits read as 1 (wired OR) */
        }
        uint8_t resp[5];
        int len = 5 - nbytes;
        for (int i = 0; i < len; i++)
            resp[i] = bits[nbytes + i];
        resp[0] &= (uint8_t)(0xFF << rx_align); /* bits before RxAlign are not received */
        if (coll_at >= 0)
            c->collisions++;
        /* CollPos: 1-based, counted from bit 0 of the first received byte (RxAlign included) */
        answer(c, resp, len, coll_at >= 0 ? coll_at - nbytes * 8 + 1 : 0);
        return;
    }
    no_answer(c);
}

static void write_reg(rc_sim_t *c, uint8_t reg, uint8_t v)
{
    switch (reg) {
    case R_COMMAND:
        if ((v & 0x0F) == CMD_SOFT_RESET) {
            reset_regs(c);
            for (int i = 0; i < c->n_tags; i++)
                c->tags[i].state = TAG_IDLE;
            return;
        }
        c->regs[R_COMMAND] = v & 0x3F;
        return;
    case R_COM_IRQ:
        if (v & 0x80)
            c->regs[R_COM_IRQ] |= v & 0x7F;
        else
            c->regs[R_COM_IRQ] &= (uint8_t)~(v & 0x7F);
        return;
    case R_FIFO_DATA:
        if (c->fifo_len < sizeof c->fifo)
            c->fifo[c->fifo_len++] = v;
        return;
    case R_FIFO_LEVEL:
        if (v & 0x80)
            c->fifo_len = c->fifo_rd = 0;
        return;
    case R_BIT_FRAMING:
        c->regs[R_BIT_FRAMING] = v & 0x7F;
        if ((v & 0x80) && (c->regs[R_COMMAND] & 0x0F) == CMD_TRANSCEIVE)
            transceive(c);
        return;
    case R_TX_CONTROL:
        if ((c->regs[R_TX_CONTROL] & 0x03) && !(v & 0x03))
            for (int i = 0; i < c->n_tags; i++)
                c->tags[i].state = TAG_IDLE; /* field off: every tag loses power and forgets */
        c->regs[R_TX_CONTROL] = v;
        return;
    case R_VERSION:
        return; /* read-only */
    default:
        c->regs[reg & 0x3F] = v;
    }
}

static uint8_t read_reg(rc_sim_t *c, uint8_t reg)
{
    if (reg == R_FIFO_DATA)
        return c->fifo_rd < c->fifo_len ? c->fifo[c->fifo_rd++] : 0;
    if (reg == R_FIFO_LEVEL)
        return (uint8_t)(c->fifo_len - c->fifo_rd);
    return c->regs[reg & 0x3F];
}

void rc_sim_begin(rc_sim_t *c)
{
    c->first = 1;
}

uint8_t rc_sim_spi(rc_sim_t *c, uint8_t mosi)
{
    if (c->muted)
        return 0xFF;
    if (c->first) { /* address byte: bit 7 read, bits 6..1 register */
        c->first = 0;
        c->reading = (mosi & 0x80) != 0;
        c->addr = (mosi >> 1) & 0x3F;
        return 0x00;
    }
    if (c->reading) { /* the byte now clocked in is the next address (or the closing 0x00) */
        uint8_t v = read_reg(c, c->addr);
        c->addr = (mosi >> 1) & 0x3F;
        return v;
    }
    write_reg(c, c->addr, mosi); /* writes: every following byte goes to the same register */
    return 0x00;
}

/* PN5180 driver and ISO 15693 stack inventory, one state machine per module: see pn5180.h. */
#include "pn5180.h"

#include <string.h>

#include "hal.h"
#include "protocol.h"

/* --- blocking frames: set-up only ----------------------------------------------------------------- */

/* Wait until BUSY is `level`; 0 if it never got there. */
static uint8_t wait_busy(uint8_t reader, uint8_t level)
{
    uint32_t t0 = millis();
    while (hal_busy(reader) != level)
        if (millis() - t0 > PN_BUSY_WAIT_MS)
            return 0;
    return 1;
}

/* One SPI frame under NSS, `out` sent, or (out NULL) `n` answer bytes clocked into `in`. Whether anybody is
 * there is not judged from BUSY (a short BUSY pulse may be over before the next look at it) but from an
 * answer: an absent module leaves MISO at its pull-up, and a register reads 0xFFFFFFFF. */
static pn_status_t frame(uint8_t reader, const uint8_t *out, uint8_t *in, uint8_t n)
{
    if (!wait_busy(reader, 0))
        return PN_BUSY_STUCK;
    spi_frame(reader, out, in, n);
    return PN_OK;
}

static void reg_frame(uint8_t *f, uint8_t op, uint8_t reg, uint32_t v)
{
    f[0] = op, f[1] = reg;
    f[2] = (uint8_t)v, f[3] = (uint8_t)(v >> 8), f[4] = (uint8_t)(v >> 16), f[5] = (uint8_t)(v >> 24);
}

static pn_status_t write_reg(uint8_t reader, uint8_t op, uint8_t reg, uint32_t v)
{
    uint8_t f[6];
    reg_frame(f, op, reg, v);
    return frame(reader, f, 0, 6);
}

static pn_status_t read_reg(uint8_t reader, uint8_t reg, uint32_t *v)
{
    uint8_t f[4] = {PN_READ_REGISTER, reg};
    pn_status_t st = frame(reader, f, 0, 2);
    if (st == PN_OK)
        st = frame(reader, 0, f, 4);
    *v = (uint32_t)f[0] | (uint32_t)f[1] << 8 | (uint32_t)f[2] << 16 | (uint32_t)f[3] << 24;
    return st;
}

pn_status_t pn_init(uint8_t reader)
{
    uint8_t f[3] = {PN_LOAD_RF_CONFIG, PN_RF_ISO15693_TX, PN_RF_ISO15693_RX};
    pn_status_t st = frame(reader, f, 0, 3);
    uint32_t enabled = 0;
    /* the IRQ pin rises when a reply begins (its SOF) and when a reception ends; a slot in which no SOF came
     * within the no-reply window is empty (pn5180.h) */
    if (st == PN_OK)
        st = write_reg(reader, PN_WRITE_REGISTER, PN_REG_IRQ_ENABLE, PN_IRQ_PIN);
    if (st == PN_OK)
        st = read_reg(reader, PN_REG_IRQ_ENABLE, &enabled);
    if (st == PN_OK && enabled != PN_IRQ_PIN)
        st = PN_ABSENT; /* nobody answered (MISO high: all ones), or not a PN5180 */
    return st;
}

pn_status_t pn_field(uint8_t reader, uint8_t on)
{
    uint8_t f[2] = {on ? PN_RF_ON : PN_RF_OFF, 0};
    pn_status_t st = frame(reader, f, 0, 2);
    return st == PN_OK && !wait_busy(reader, 0) ? PN_BUSY_STUCK : st;
}

/* --- the scan: one frame per step ------------------------------------------------------------------ */

enum {
    PH_ON, PH_SETTLE, PH_ARM_IDLE, PH_ARM_TRX, PH_TXCFG, PH_SEND, PH_CLEAR, PH_WAIT, PH_SOF_CLEAR, PH_WAIT_RX,
    PH_RXS_CMD, PH_RXS_READ, PH_DATA_CMD, PH_DATA_READ, PH_CHK_CMD, PH_CHK_READ, PH_OFF, PH_DONE
};
enum { K_PROBE, K_ROUND, K_EOF, K_QUIET }; /* what an exchange sends */
enum { SLOT_EMPTY, SLOT_UID, SLOT_COLLISION, SLOT_GARBLED };

/* TX_CONFIG first if it does not yet send what this exchange needs (a full frame, or an EOF alone). */
static uint8_t tx_phase(const pn_scan_t *s)
{
    return (s->kind == K_EOF) == s->tx_eof ? PH_SEND : PH_TXCFG;
}

static void exchange(pn_scan_t *s, uint8_t kind)
{
    /* TRANSCEIVE is armed for the scan's first request and again after a STAY QUIET (no reply: its wait
     * ended on the timer, and the PN5180 may have left the transceive state); after a reception it stays
     * armed, waiting for the next frame to send */
    uint8_t arm = kind == K_PROBE || s->kind == K_QUIET || (kind == K_ROUND && s->rounds == 1 && s->skip_probe);
    s->kind = kind;
    s->phase = arm ? PH_ARM_IDLE : tx_phase(s);
}

static void go_off(pn_scan_t *s)
{
    s->phase = PH_CHK_CMD; /* IRQ_ENABLE read back before the field goes off: the module is still set up */
}

/* The search stopped before every mask was searched: the UIDs read are a floor, not the zone. */
static void incomplete(pn_scan_t *s)
{
    s->state = s->count || !(s->garbled || s->timeouts) ? ZONE_READ_UNCERTAIN : ZONE_READ_UNREADABLE;
    go_off(s);
}

static void start_round(pn_scan_t *s)
{
    s->rounds++;
    s->slot = 0;
    s->round_n = s->round_garbled = 0;
    exchange(s, K_ROUND);
}

/* 4 bits of the path at `level`; the mask's bits past it are zero, as ISO 15693 pads a mask. */
static void set_nibble(pn_scan_t *s, uint8_t level, uint8_t v)
{
    uint8_t byte = level / 2;
    s->mask[byte] = level % 2 ? (uint8_t)((s->mask[byte] & 0x0F) | v << 4) : v;
    for (uint8_t i = (uint8_t)(byte + 1); i < PN_UID_LEN; i++)
        s->mask[i] = 0;
}

/* The round under the current mask is settled: depth first into its next collided slot, else back up. */
static void next_mask(pn_scan_t *s)
{
    for (;;) {
        uint16_t p = s->pending[s->level];
        if (p) {
            uint8_t b = 0;
            while (!(p & (1u << b)))
                b++;
            s->pending[s->level] = (uint16_t)(p & ~(1u << b));
            set_nibble(s, s->level, b);
            s->level++;
            s->pending[s->level] = 0;
            s->attempt = 0;
            start_round(s);
            return;
        }
        if (s->level == 0) {
            s->state = ZONE_READ_COMPLETE;
            go_off(s);
            return;
        }
        s->level--;
    }
}

static void round_end(pn_scan_t *s)
{
    if (s->stop) {
        incomplete(s);
    } else if (!s->round_garbled) {
        next_mask(s);
    } else if (s->attempt == PN_RETRIES) {
        incomplete(s); /* one slot keeps giving bad frames */
    } else {
        /* repeat the round; the chips it read stay quiet so the garbled ones get the air */
        s->attempt++;
        s->quiet_at = 0;
        if (s->round_n)
            exchange(s, K_QUIET);
        else
            start_round(s);
    }
}

static void slot_done(pn_scan_t *s, uint8_t what)
{
    s->slots++;
    if (s->kind == K_PROBE) {
        /* only silence is trusted: one reply or more goes to the full search (a weak chip may hide behind one) */
        if (what == SLOT_EMPTY) {
            s->state = ZONE_READ_COMPLETE;
            go_off(s);
        } else {
            start_round(s);
        }
        return;
    }
    if (s->stop) {
        /* the round still has to be stepped to its end */
    } else if (what == SLOT_UID) {
        if (s->count == s->limit) {
            s->stop = 1; /* one more than the reader is proven for: the rest is not to be trusted */
        } else {
            uint8_t uid[PN_UID_LEN];
            for (uint8_t i = 0; i < PN_UID_LEN; i++) /* on air least significant byte first */
                uid[i] = s->rx[2 + PN_UID_LEN - 1 - i];
            if (s->round_n < 16)
                memcpy(s->round_uid[s->round_n++], s->rx + 2, PN_UID_LEN);
            s->count++;
            if (s->on_uid)
                s->on_uid(s->reader, uid);
        }
    } else if (what == SLOT_COLLISION) {
        s->collisions++;
        if (s->level + 1 >= PN_LEVELS)
            s->stop = 1; /* distinct UIDs cannot collide under a 60-bit mask: noise */
        else
            s->pending[s->level] |= (uint16_t)(1u << s->slot);
    } else if (what == SLOT_GARBLED) {
        s->garbled++;
        s->round_garbled++;
    }
    if (s->kind == K_ROUND || s->slot < 15) {
        if (s->kind == K_EOF)
            s->slot++;
        else
            s->slot = 1;
        if (s->slot < 16) {
            exchange(s, K_EOF);
            return;
        }
    }
    round_end(s);
}

void pn_scan_begin(pn_scan_t *s, uint8_t reader, uint8_t limit, pn_uid_fn on_uid)
{
    memset(s, 0, sizeof *s);
    s->reader = reader;
    s->limit = limit > PN_MAX_TAGS ? PN_MAX_TAGS : limit;
    s->on_uid = on_uid;
    s->tx_eof = 1; /* unknown after set-up: the first request writes the full-frame TX_CONFIG */
    s->irq_set = 1; /* the last scan's last reply may have left its RX_IRQ: cleared after the first request */
    s->phase = PH_ON;
    s->since = millis8();
}

static void fail(pn_scan_t *s, pn_status_t st)
{
    s->status = st;
    s->phase = PH_DONE;
}

/* From the SEND_DATA frame to the end of the no-reply window, in 4 us ticks: the PN5180 starts sending, the
 * frame goes out (`bytes` on air, 0 for an EOF alone), then a chip's reply must begin within t1 and its SOF be
 * heard: the window the PN5180's own TIMER1 was given (PN_NO_REPLY_US). */
static uint16_t no_reply_window(uint8_t bytes)
{
    uint16_t us = bytes ? PN_TX_SOF_US + bytes * PN_TX_BYTE_US + PN_TX_EOF_US : PN_TX_EOF_US;
    return (uint16_t)((PN_TX_START_US + us + PN_NO_REPLY_US + 3) / 4);
}

/* The frame of the current phase; returns the phase that follows it. */
static uint8_t send_phase(pn_scan_t *s)
{
    uint8_t f[2 + 3 + PN_UID_LEN], *in = 0, n = 2, next = (uint8_t)(s->phase + 1);
    switch (s->phase) {
    case PH_ON: f[0] = PN_RF_ON, f[1] = 0; break;
    case PH_OFF: f[0] = PN_RF_OFF, f[1] = 0; next = PH_DONE; break;
    case PH_ARM_IDLE: reg_frame(f, PN_WRITE_REGISTER_AND_MASK, PN_REG_SYSTEM_CONFIG, (uint32_t)~PN_CMD_MASK), n = 6; break;
    case PH_ARM_TRX:
        reg_frame(f, PN_WRITE_REGISTER_OR_MASK, PN_REG_SYSTEM_CONFIG, PN_CMD_TRANSCEIVE), n = 6;
        next = tx_phase(s);
        break;
    case PH_CLEAR:
        /* the last reply's RX_IRQ, cleared just after the next frame was sent (in the same step): no reply
         * can begin within t1 (≥ 0.3 ms), so the clear cannot take the new exchange's IRQ, and the slot's
         * turnaround is one frame shorter */
        reg_frame(f, PN_WRITE_REGISTER, PN_REG_IRQ_CLEAR, 0xFFFFFFFFUL), n = 6;
        s->irq_set = 0;
        break;
    case PH_SOF_CLEAR:
        /* a reply began: clear its SOF, and only that (a reception that ends early must keep its RX_IRQ) */
        reg_frame(f, PN_WRITE_REGISTER, PN_REG_IRQ_CLEAR, PN_IRQ_RX_SOF), n = 6;
        s->irq_set = 1;
        break;
    case PH_TXCFG:
        s->tx_eof = s->kind == K_EOF;
        if (s->tx_eof) /* EOF only: no SOF, no data, no CRC */
            reg_frame(f, PN_WRITE_REGISTER_AND_MASK, PN_REG_TX_CONFIG, PN_TX_EOF_ONLY_AND);
        else
            reg_frame(f, PN_WRITE_REGISTER_OR_MASK, PN_REG_TX_CONFIG, PN_TX_FULL_FRAME_OR);
        n = 6;
        break;
    case PH_SEND:
        f[0] = PN_SEND_DATA, f[1] = 0; /* 0 valid bits in the last byte: all 8 */
        if (s->kind == K_PROBE || s->kind == K_ROUND) {
            uint8_t bits = (uint8_t)(s->kind == K_ROUND ? s->level * 4 : 0), bytes = (uint8_t)((bits + 7) / 8);
            f[2] = s->kind == K_ROUND ? ISO15693_FLAGS_INVENTORY_16 : ISO15693_FLAGS_INVENTORY_1;
            f[3] = ISO15693_INVENTORY, f[4] = bits;
            memcpy(f + 5, s->mask, bytes);
            n = (uint8_t)(5 + bytes);
        } else if (s->kind == K_QUIET) {
            f[2] = ISO15693_FLAGS_ADDRESSED, f[3] = ISO15693_STAY_QUIET;
            memcpy(f + 4, s->round_uid[s->quiet_at], PN_UID_LEN);
            n = 4 + PN_UID_LEN;
        }
        s->sent_at = hal_us4();
        s->window = no_reply_window(n == 2 ? 0 : (uint8_t)(n - 2 + 2)); /* the request and its CRC */
        next = s->irq_set ? PH_CLEAR : PH_WAIT;
        break;
    case PH_RXS_CMD: f[0] = PN_READ_REGISTER, f[1] = PN_REG_RX_STATUS; break;
    case PH_RXS_READ: in = f, n = 4; break;
    case PH_DATA_CMD: f[0] = PN_READ_DATA, f[1] = 0; break;
    case PH_DATA_READ: in = s->rx, n = sizeof s->rx; break;
    case PH_CHK_CMD: f[0] = PN_READ_REGISTER, f[1] = PN_REG_IRQ_ENABLE; break;
    case PH_CHK_READ: in = f, n = 4; break;
    default: return s->phase;
    }
    spi_frame(s->reader, in ? 0 : f, in, n);
    if (s->phase == PH_RXS_READ || s->phase == PH_CHK_READ)
        s->rx_status = (uint32_t)f[0] | (uint32_t)f[1] << 8 | (uint32_t)f[2] << 16 | (uint32_t)f[3] << 24;
    return next;
}

/* What the slot (or the probe) received, from RX_STATUS. */
static void rx_status_read(pn_scan_t *s)
{
    uint32_t rx = s->rx_status;
    uint16_t n = (uint16_t)(rx & PN_RX_BYTES_MASK);
    if (rx == 0xFFFFFFFFUL) /* MISO at its pull-up: the module is gone */
        fail(s, PN_ABSENT);
    else if (s->timed_out)  /* it is there, and the exchange never ended: the zone cannot be read */
        incomplete(s);
    else if (rx & PN_RX_COLLISION)
        slot_done(s, SLOT_COLLISION);
    else if (rx & (PN_RX_INTEGRITY_ERROR | PN_RX_PROTOCOL_ERROR) || (n && n != 2 + PN_UID_LEN))
        slot_done(s, SLOT_GARBLED);
    else if (!n)
        slot_done(s, SLOT_EMPTY);
    else
        s->phase = PH_DATA_CMD; /* a UID: clock it out */
}

uint8_t pn_scan_on_air(const pn_scan_t *s)
{
    return s->phase == PH_WAIT || s->phase == PH_WAIT_RX || s->phase == PH_SETTLE || s->phase == PH_DONE;
}

/* The exchange's no-reply window ran out and no reply began: an empty slot (or a STAY QUIET done). */
static void no_reply(pn_scan_t *s)
{
    if (s->kind != K_QUIET)
        slot_done(s, SLOT_EMPTY);
    else if (++s->quiet_at < s->round_n)
        exchange(s, K_QUIET);
    else
        start_round(s);
}

uint8_t pn_scan_step(pn_scan_t *s)
{
    if (s->phase == PH_DONE)
        return 1;
    if (s->phase == PH_WAIT) {
        /* the clock first, then the pin: a reply that began in time has raised the pin by the window's end */
        uint8_t over = (uint16_t)(hal_us4() - s->sent_at) >= s->window;
        s->since = millis8();
        if (hal_irq(s->reader))
            s->phase = PH_SOF_CLEAR; /* a reply began (or, in a STAY QUIET, something answered: heard out) */
        else if (over)
            no_reply(s); /* no SOF: nobody answered; no IRQ to clear, no register to read */
        return s->phase == PH_DONE;
    }
    if (s->phase == PH_WAIT_RX) {
        if (!hal_irq(s->reader)) {
            if ((uint8_t)(millis8() - s->since) > PN_RX_WAIT_MS) { /* a reply began and never ended */
                s->timeouts++;
                s->timed_out = 1;
                s->phase = PH_RXS_CMD; /* one look at RX_STATUS: a module still there, or gone */
                s->since = millis8();
            }
            return 0;
        }
        s->since = millis8();
        if (s->kind != K_QUIET)
            s->phase = PH_RXS_CMD;
        else
            no_reply(s); /* nobody answers a STAY QUIET; whatever did was heard out, its IRQ cleared next */
        return 0;
    }
    if (s->phase == PH_SETTLE) {
        if ((uint8_t)(millis8() - s->since) < PN_RF_SETTLE_MS)
            return 0;
        if (s->skip_probe)
            start_round(s);
        else
            exchange(s, K_PROBE);
        return 0;
    }
    /* a frame is due: the datasheet's rule, never start one while BUSY is high */
    if (hal_busy(s->reader)) {
        if ((uint8_t)(millis8() - s->since) > PN_BUSY_WAIT_MS)
            fail(s, PN_BUSY_STUCK);
        return s->phase == PH_DONE;
    }
    uint8_t was = s->phase, next = send_phase(s);
    s->since = millis8();
    if (s->phase == PH_DONE)
        return 1;
    s->phase = next;
    if (next == PH_CLEAR) {
        /* the IRQ_CLEAR goes in the same step, as soon as BUSY allows: left for later, a frame to another
         * module that waits on the UART (a chip's arrival) could hold it past the new exchange's first IRQ */
        uint8_t t0 = millis8();
        while (hal_busy(s->reader))
            if ((uint8_t)(millis8() - t0) > PN_BUSY_WAIT_MS) {
                fail(s, PN_BUSY_STUCK);
                return 1;
            }
        s->phase = send_phase(s);
        s->since = millis8();
    }
    if (was == PH_CHK_READ && s->rx_status != PN_IRQ_PIN)
        fail(s, PN_ABSENT); /* all ones: unplugged; anything else: it was reset and lost its set-up */
    else if (was == PH_RXS_READ)
        rx_status_read(s);
    else if (was == PH_DATA_READ)
        slot_done(s, SLOT_UID);
    return s->phase == PH_DONE;
}

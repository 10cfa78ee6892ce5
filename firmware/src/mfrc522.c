/* MFRC522 register-level driver: see mfrc522.h for what it does and why it stays this small. */
#include "mfrc522.h"

#include "hal.h"

#define STUCK_MS 10 /* the reader's own timer fires after 2 ms; 10 ms without any IRQ means the chip hangs */

/* SPI address byte: bit 7 = read, bits 6..1 = register, bit 0 = 0 (datasheet 8.1.2.3). */
uint8_t rc_read(uint8_t reader, uint8_t reg)
{
    spi_select(reader);
    spi_transfer((uint8_t)(0x80 | (reg << 1)));
    uint8_t v = spi_transfer(0x00);
    spi_release(reader);
    return v;
}

void rc_write(uint8_t reader, uint8_t reg, uint8_t value)
{
    spi_select(reader);
    spi_transfer((uint8_t)((reg << 1) & 0x7E));
    spi_transfer(value);
    spi_release(reader);
}

uint8_t rc_version(uint8_t reader)
{
    return rc_read(reader, RC_VERSION);
}

uint8_t rc_init(uint8_t reader)
{
    uint8_t v = rc_version(reader);
    if (v == 0x00 || v == 0xFF) /* MISO held by its pull-up (or shorted): nobody is there */
        return 0;
    rc_write(reader, RC_COMMAND, RC_CMD_SOFT_RESET);
    uint32_t t0 = millis();
    while (rc_read(reader, RC_COMMAND) & 0x10) /* PowerDown bit stays set until the oscillator runs */
        if (millis() - t0 > 50)
            return 0;
    rc_write(reader, RC_T_MODE, 0x80);      /* TAuto: the timer starts when a transmission ends */
    rc_write(reader, RC_T_PRESCALER, 0xA9); /* 13.56 MHz / (2*169+1) = 40 kHz: 25 us per tick */
    rc_write(reader, RC_T_RELOAD_H, 0);
    rc_write(reader, RC_T_RELOAD_L, 80);    /* 80 ticks = 2 ms: any tag answers well within that */
    rc_write(reader, RC_TX_ASK, 0x40);      /* 100 % ASK modulation, as type A requires */
    rc_write(reader, RC_MODE, 0x3D);        /* CRC preset 0x6363 (CRC_A) */
    rc_write(reader, RC_COLL, 0x00);        /* keep bits received after a collision (we read CollPos) */
    return rc_version(reader) == v;
}

void rc_antenna(uint8_t reader, uint8_t on)
{
    uint8_t v = rc_read(reader, RC_TX_CONTROL);
    rc_write(reader, RC_TX_CONTROL, on ? (v | 0x03) : (v & (uint8_t)~0x03));
}

uint16_t rc_crc_a(const uint8_t *data, uint8_t len)
{
    uint16_t crc = 0x6363;
    while (len--) {
        uint8_t b = *data++ ^ (uint8_t)crc;
        b ^= (uint8_t)(b << 4);
        crc = (uint16_t)((crc >> 8) ^ ((uint16_t)b << 8) ^ ((uint16_t)b << 3) ^ (b >> 4));
    }
    return crc;
}

/* Send tx (last byte holding `framing & 7` valid bits, 0 = 8), receive into rx (aligned at framing >> 4).
 * On return *rx_len is the byte count received. */
static rc_status_t transceive(uint8_t r, const uint8_t *tx, uint8_t tx_len, uint8_t framing, uint8_t *rx,
                              uint8_t *rx_len)
{
    rc_write(r, RC_COMMAND, RC_CMD_IDLE);
    rc_write(r, RC_COM_IRQ, 0x7F);    /* clear every IRQ flag */
    rc_write(r, RC_FIFO_LEVEL, 0x80); /* flush the FIFO */
    spi_select(r);
    spi_transfer((uint8_t)((RC_FIFO_DATA << 1) & 0x7E)); /* burst write: every byte goes to the FIFO */
    for (uint8_t i = 0; i < tx_len; i++)
        spi_transfer(tx[i]);
    spi_release(r);
    rc_write(r, RC_BIT_FRAMING, framing);
    rc_write(r, RC_COMMAND, RC_CMD_TRANSCEIVE);
    rc_write(r, RC_BIT_FRAMING, (uint8_t)(framing | 0x80)); /* StartSend */

    uint32_t t0 = millis();
    uint8_t irq;
    for (;;) {
        irq = rc_read(r, RC_COM_IRQ);
        if (irq & 0x30) /* RxIRq or IdleIRq: an answer came in */
            break;
        if (irq & 0x01) /* TimerIRq: the 2 ms ran out with no answer */
            return RC_NO_TAG;
        if (millis() - t0 > STUCK_MS)
            return RC_STUCK;
    }
    uint8_t err = rc_read(r, RC_ERROR);
    if (err & 0x13) /* BufferOvfl, ParityErr, ProtocolErr */
        return RC_BAD_FRAME;
    uint8_t n = rc_read(r, RC_FIFO_LEVEL) & 0x7F;
    if (n > *rx_len)
        return RC_BAD_FRAME;
    for (uint8_t i = 0; i < n; i++)
        rx[i] = rc_read(r, RC_FIFO_DATA);
    *rx_len = n;
    return (err & 0x08) ? RC_COLLISION : RC_OK; /* CollErr */
}

/* Anticollision and SELECT at one cascade level; cl receives the 4 UID bytes + BCC; returns SAK in *sak. */
static rc_status_t select_level(uint8_t r, uint8_t sel, uint8_t cl[5], uint8_t *sak)
{
    uint8_t buf[9], rx[5], known = 0; /* known: UID bits of this level already settled (0..32) */
    for (uint8_t i = 0; i < 5; i++)
        cl[i] = 0;
    for (;;) { /* until an answer without collision completes the 40 bits (known may reach 32: BCC only) */
        uint8_t nbytes = known / 8, nbits = known % 8, partial = nbits ? 1 : 0;
        buf[0] = sel;
        buf[1] = (uint8_t)(((2 + nbytes) << 4) | nbits); /* NVB: bytes and bits we send */
        for (uint8_t i = 0; i < nbytes + partial; i++)
            buf[2 + i] = cl[i];
        uint8_t rx_len = sizeof rx;
        rc_status_t st = transceive(r, buf, (uint8_t)(2 + nbytes + partial), (uint8_t)((nbits << 4) | nbits), rx,
                                    &rx_len);
        if (st != RC_OK && st != RC_COLLISION)
            return st;
        /* received bits continue where ours stopped: the first byte shares its low bits with ours */
        uint8_t mask = (uint8_t)((1 << nbits) - 1);
        for (uint8_t i = 0; i < rx_len && nbytes + i < 5; i++)
            cl[nbytes + i] = i == 0 ? (uint8_t)((cl[nbytes] & mask) | (rx[0] & (uint8_t)~mask)) : rx[i];
        if (st == RC_OK)
            break;
        uint8_t coll = rc_read(r, RC_COLL);
        if (coll & 0x20) /* CollPosNotValid */
            return RC_COLLISION;
        uint8_t pos = coll & 0x1F;      /* 1-based, counted from the first received byte; 0 means 32 */
        pos = (uint8_t)((pos ? pos : 32) + nbytes * 8);
        if (pos <= known || pos > 32)
            return RC_COLLISION;
        /* take the branch where the colliding bit is 1; bits above it in that byte are not known yet */
        uint8_t bit = (uint8_t)((pos - 1) % 8), at = (uint8_t)((pos - 1) / 8);
        cl[at] = (uint8_t)((cl[at] | (1 << bit)) & ((1 << (bit + 1)) - 1));
        known = pos;
    }
    if ((cl[0] ^ cl[1] ^ cl[2] ^ cl[3]) != cl[4])
        return RC_BAD_FRAME;
    buf[0] = sel;
    buf[1] = 0x70; /* NVB: all 40 bits: this is the SELECT */
    for (uint8_t i = 0; i < 5; i++)
        buf[2 + i] = cl[i];
    uint16_t crc = rc_crc_a(buf, 7);
    buf[7] = (uint8_t)crc;
    buf[8] = (uint8_t)(crc >> 8);
    uint8_t rx_len = sizeof rx;
    rc_status_t st = transceive(r, buf, 9, 0, rx, &rx_len);
    if (st != RC_OK)
        return st == RC_COLLISION ? RC_BAD_FRAME : st;
    if (rx_len != 3 || rc_crc_a(rx, 1) != (uint16_t)(rx[1] | (rx[2] << 8)))
        return RC_BAD_FRAME;
    *sak = rx[0];
    return RC_OK;
}

rc_status_t rc_next_tag(uint8_t reader, uint8_t *uid, uint8_t *uid_len)
{
    uint8_t req = PICC_REQA, atqa[2], n = sizeof atqa;
    rc_status_t st = transceive(reader, &req, 1, 0x07, atqa, &n); /* REQA is a 7-bit short frame */
    if (st == RC_NO_TAG || st == RC_STUCK)
        return st;
    /* any answer, even colliding ATQAs from different tag types, means someone is there */
    static const uint8_t sels[3] = {PICC_SEL_CL1, PICC_SEL_CL2, PICC_SEL_CL3};
    uint8_t len = 0, cl[5], sak = 0;
    for (uint8_t level = 0; level < 3; level++) {
        st = select_level(reader, sels[level], cl, &sak);
        if (st != RC_OK)
            return st;
        if (sak & 0x04) { /* cascade bit: the UID goes on; cl[0] is the cascade tag 0x88 */
            if (cl[0] != PICC_CASCADE_TAG)
                return RC_BAD_FRAME;
            for (uint8_t i = 1; i < 4; i++)
                uid[len++] = cl[i];
        } else {
            for (uint8_t i = 0; i < 4; i++)
                uid[len++] = cl[i];
            break;
        }
    }
    if (sak & 0x04)
        return RC_BAD_FRAME; /* still incomplete after three levels */
    *uid_len = len;
    uint8_t hlta[4] = {PICC_HLTA, 0x00, 0, 0};
    uint16_t crc = rc_crc_a(hlta, 2);
    hlta[2] = (uint8_t)crc;
    hlta[3] = (uint8_t)(crc >> 8);
    uint8_t dummy[2];
    n = sizeof dummy;
    (void)transceive(reader, hlta, 4, 0, dummy, &n); /* a halted tag does not answer: a timeout is success */
    return RC_OK;
}

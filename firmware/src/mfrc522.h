/*
 * A small register-level driver for NXP MFRC522 RFID readers on one SPI bus (one chip select each).
 *
 * What it does, and nothing more: reset and configure a reader, switch its antenna, and run one inventory
 * step of ISO/IEC 14443-3 type A: REQA, then anticollision and SELECT through cascade levels 1-3 (4-, 7- and
 * 10-byte UIDs), then HLTA so the selected tag stays quiet while the others are found. No MIFARE crypto,
 * no reading of tag memory: the UID is all a card or chip needs to say.
 *
 * The SPI transfer, chip select and clock come from the hardware-access layer (hal.h: hal_avr.c on the
 * board, the host test's own versions against firmware/sim/), so the same code talks to real and simulated chips.
 */
#ifndef DEALERBOX_MFRC522_H
#define DEALERBOX_MFRC522_H

#include <stdint.h>

/* Registers used (MFRC522 datasheet, section 9). */
#define RC_COMMAND 0x01
#define RC_COM_IRQ 0x04
#define RC_DIV_IRQ 0x05
#define RC_ERROR 0x06
#define RC_FIFO_DATA 0x09
#define RC_FIFO_LEVEL 0x0A
#define RC_CONTROL 0x0C
#define RC_BIT_FRAMING 0x0D
#define RC_COLL 0x0E
#define RC_MODE 0x11
#define RC_TX_CONTROL 0x14
#define RC_TX_ASK 0x15
#define RC_T_MODE 0x2A
#define RC_T_PRESCALER 0x2B
#define RC_T_RELOAD_H 0x2C
#define RC_T_RELOAD_L 0x2D
#define RC_VERSION 0x37

/* Commands (CommandReg). */
#define RC_CMD_IDLE 0x00
#define RC_CMD_TRANSCEIVE 0x0C
#define RC_CMD_SOFT_RESET 0x0F

/* ISO 14443-3A commands. */
#define PICC_REQA 0x26
#define PICC_HLTA 0x50
#define PICC_SEL_CL1 0x93
#define PICC_SEL_CL2 0x95
#define PICC_SEL_CL3 0x97
#define PICC_CASCADE_TAG 0x88

typedef enum {
    RC_OK = 0,
    RC_NO_TAG,     /* nobody answered before the reader's timer ran out (the normal "empty" case) */
    RC_COLLISION,  /* several tags answered and the collision could not be resolved */
    RC_BAD_FRAME,  /* CRC, parity or protocol error: a tag moved mid-exchange, or noise */
    RC_STUCK       /* the reader itself did not finish the command: a comm fault */
} rc_status_t;

uint8_t rc_read(uint8_t reader, uint8_t reg);
void rc_write(uint8_t reader, uint8_t reg, uint8_t value);

/* VersionReg: 0x91/0x92 for genuine chips, 0x88 or 0x12 for common clones; 0x00/0xFF means nobody there. */
uint8_t rc_version(uint8_t reader);
/* Soft reset and configure (timer 2 ms, 100 % ASK, CRC preset 0x6363). Returns 0 if the reader is absent. */
uint8_t rc_init(uint8_t reader);
void rc_antenna(uint8_t reader, uint8_t on);

/* One inventory step: wake one idle tag, resolve collisions, select it, halt it. On RC_OK the UID is in
 * uid[0..*uid_len-1]. Call again until RC_NO_TAG: halted tags stay quiet until the field is switched off. */
rc_status_t rc_next_tag(uint8_t reader, uint8_t *uid, uint8_t *uid_len);

/* ISO 14443-3A CRC_A (poly 0x8408 reflected, preset 0x6363), low byte first on the air. */
uint16_t rc_crc_a(const uint8_t *data, uint8_t len);

#endif

/*
 * A simulated MFRC522 and the ISO 14443-3A tags in its field, enough for the firmware's driver to run
 * unchanged: register reads and writes over SPI, the FIFO, Transceive with bit-oriented framing, REQA,
 * anticollision with real bit collisions (CollErr + CollPos), SELECT over cascade levels 1-3 with CRC_A,
 * HLTA, and the field switch (tags lose power and forget their state when the antenna goes off).
 *
 * Not simulated: timing (answers are instant), MIFARE authentication, tag memory, RF noise.
 */
#ifndef DEALERBOX_MFRC522_SIM_H
#define DEALERBOX_MFRC522_SIM_H

#include <stdint.h>

#define SIM_MAX_TAGS 128

typedef enum { TAG_IDLE, TAG_READY, TAG_ACTIVE, TAG_HALT } sim_tag_state_t;

typedef struct {
    uint8_t uid[10];
    uint8_t len;   /* 4, 7 or 10 */
    uint8_t state; /* sim_tag_state_t */
    uint8_t level; /* cascade levels this tag has already passed in the current selection */
    /* what happened to it (tests): woken by REQA/WUPA, woken out of HALT (WUPA only), selected, halted */
    uint16_t wakes, wakes_from_halt, selected, halts;
} sim_tag_t;

typedef struct {
    uint8_t regs[64];
    uint8_t fifo[64];
    uint8_t fifo_len, fifo_rd;
    sim_tag_t tags[SIM_MAX_TAGS];
    int n_tags;
    int muted;   /* not on the bus at all: MISO stays at its pull-up (reads 0xFF) */
    int stuck;   /* answers registers but never finishes a command */
    int garbled; /* the tags in the field answer, but every answer has a parity error (a damaged inlay) */
    /* SPI transaction */
    int first;   /* next byte is an address byte */
    int reading;
    uint8_t addr;
    /* statistics */
    unsigned long transceives, collisions, selects;
} rc_sim_t;

void rc_sim_init(rc_sim_t *c);
void rc_sim_begin(rc_sim_t *c);                 /* chip select went low */
uint8_t rc_sim_spi(rc_sim_t *c, uint8_t mosi);   /* one byte while selected; returns MISO */
int rc_sim_add(rc_sim_t *c, const uint8_t *uid, uint8_t len);    /* a tag enters the field */
int rc_sim_remove(rc_sim_t *c, const uint8_t *uid, uint8_t len); /* a tag leaves; 0 if it was not there */
uint16_t rc_sim_crc_a(const uint8_t *data, int len);

#endif

/*
 * The reader board's wiring (Arduino Mega 2560): one reader per zone, all on the hardware SPI bus, one
 * chip-select line each: an MFRC522 for the card zones (readers 0-13), a PN5180 for the chip zones
 * (readers 14-24: bet1-10 and the pot), which read whole stacks of ISO 15693 chips. hardware/wiring.md has the same table for the person holding the soldering iron.
 */
#ifndef DEALERBOX_BOARD_H
#define DEALERBOX_BOARD_H

#include <stdint.h>

#define FIRMWARE_VERSION_MAJOR 2
#define FIRMWARE_VERSION_MINOR 2
#define FIRMWARE_VERSION_PATCH 0

#define READER_COUNT 25 /* one per zone: shoe, seat1-10, board, burn, muck, bet1-10, pot */

/* The zone each reader's antenna covers, in reader order (reader i is wired to chip select i). */
#define READER_ZONES                                                                                   \
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}

/* Chip selects: Arduino pins D22..D46, as (port letter, bit). Active low, idle high. */
#define READER_SELECTS                                                                                 \
    {{'A', 0}, {'A', 1}, {'A', 2}, {'A', 3}, {'A', 4}, {'A', 5}, {'A', 6}, {'A', 7}, /* D22-D29 */     \
     {'C', 7}, {'C', 6}, {'C', 5}, {'C', 4}, {'C', 3}, {'C', 2}, {'C', 1}, {'C', 0}, /* D30-D37 */     \
     {'D', 7}, {'G', 2}, {'G', 1}, {'G', 0},                                         /* D38-D41 */     \
     {'L', 7}, {'L', 6}, {'L', 5}, {'L', 4}, {'L', 3}}                               /* D42-D46 */

/* Every reader's NRSTPD (reset / power-down) on one line: D49 = PL0, high = running. */
#define READER_RESET_PORT 'L'
#define READER_RESET_BIT 0

/* PN5180 BUSY inputs of the stack readers (hardware/chip-stacks.md): A8-A15 = PK0-PK7 for bet1-bet8,
 * A0-A2 = PF0-PF2 for bet9, bet10, pot. High while the PN5180 works on a frame; 10 kOhm pull-downs on the board. */
#define PN5180_FIRST_READER 14
/* Chips per field a stack reader and its antenna were proven to read completely (bench test: spread, then
 * stack, compare); past it a zone reads "uncertain" with this many proven. Lower it for a weaker antenna. */
#define PN5180_PROVEN_CHIPS 40
#define PN5180_BUSY_PINS {{'K', 0}, {'K', 1}, {'K', 2}, {'K', 3}, {'K', 4}, {'K', 5}, {'K', 6}, {'K', 7}, \
                          {'F', 0}, {'F', 1}, {'F', 2}}
/* PN5180 IRQ outputs (high while an enabled IRQ is pending: the RF exchange a SEND_DATA started is over):
 * A3-A7 = PF3-PF7 for bet1-bet5, D17, D16, D6, D7, D8, D9 = PH0, PH1, PH3-PH6 for bet6-bet10 and the pot.
 * Level-shifted like BUSY, 10 kOhm pull-downs: an unplugged module never signals the end of an exchange. */
#define PN5180_IRQ_PINS {{'F', 3}, {'F', 4}, {'F', 5}, {'F', 6}, {'F', 7}, \
                         {'H', 0}, {'H', 1}, {'H', 3}, {'H', 4}, {'H', 5}, {'H', 6}}

/* Shoe orientation sensor (see hardware/wiring.md): a slotted break-beam at the shoe's mouth says "a card
 * is passing", a reflective IR sensor under it says what side faces the felt. Both inputs have pull-ups.
 *   D2 = PE4 SHOE_MOUTH: low while a card blocks the beam.
 *   D3 = PE5 SHOE_FACE:  low while the sensor sees a reflection (the white face: the card is face DOWN);
 *                        high while it sees the IR-dark back (the card is face UP). */
#define SHOE_MOUTH_BIT 4
#define SHOE_FACE_BIT 5

/* The shoe's reader (reader 0) has its antenna at the shoe's mouth, not around the stack (stacked NTAG inlays
 * detune each other: hardware/README.md): it sees a card only while it slides out. Its cards are then
 * reported as they leave (CARD_FACE, TAG_LEFT), never as arriving: the stub behind the mouth is not read. */
#define SHOE_READ_AT_MOUTH 1

/* Status LED: D13 = PB7 (the Mega's on-board "L" LED). */
#define STATUS_LED_BIT 7

#define UART_BAUD 115200UL

#endif

/*
 * The hardware-access layer: the few things the drivers need from the board (SPI bus, one chip select per
 * reader, a millisecond clock). Drivers (mfrc522.c) include this header only, never main.c, so the
 * dependency runs one way: main -> drivers -> hal. hal_avr.c implements it on the ATmega2560; the host
 * tests (test/test_driver_sim.c) implement it against the simulated readers.
 */
#ifndef DEALERBOX_HAL_H
#define DEALERBOX_HAL_H

#include <stdint.h>

/* Assert / release reader n's chip select (active low), and exchange one byte on the SPI bus. */
void spi_select(uint8_t reader);
void spi_release(uint8_t reader);
uint8_t spi_transfer(uint8_t out);
/* One whole frame under reader n's chip select: `out` sent (0xFF when NULL), the answer into `in` if given. */
void spi_frame(uint8_t reader, const uint8_t *out, uint8_t *in, uint8_t n);

/* Reader n's BUSY line (PN5180 readers): 1 while the chip is working on a frame. */
uint8_t hal_busy(uint8_t reader);
/* Reader n's IRQ line (PN5180 readers): 1 while an enabled IRQ_STATUS bit is set (an RF exchange ended). */
uint8_t hal_irq(uint8_t reader);

/* Milliseconds since boot (wraps after ~49 days; compare with subtraction). */
uint32_t millis(void);
/* Its low byte, read without masking interrupts: for the PN5180 scan's short waits (< 256 ms). */
uint8_t millis8(void);

/* A free-running clock in 4 us ticks (wraps after 262 ms): the PN5180 scan's no-reply windows. */
uint16_t hal_us4(void);

/* Called once per millisecond from the timer interrupt (e.g. to sample a sensor); may be NULL. */
typedef void (*hal_tick_fn)(uint32_t now_ms);

/* Pins, SPI master at 1 MHz, chip selects idle high, readers out of reset, the 1 ms timer. */
void hal_init(hal_tick_fn on_tick);
/* Sleep until `ms` have passed (the timer interrupt wakes the core each millisecond). */
void hal_wait_ms(uint16_t ms);

#endif

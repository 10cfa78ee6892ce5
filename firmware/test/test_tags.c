/* Host tests of the board's tag table: debouncing into arrived/left, the bounded pool, inventory. */
#include "../src/tags.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

typedef struct {
    uint8_t reader, left, uid_len, uid[UID_MAX_LEN];
} event_t;
static event_t events[1024];
static int n_events;

static void record(uint8_t reader, uint8_t left, const uint8_t *uid, uint8_t uid_len)
{
    event_t *e = &events[n_events++];
    e->reader = reader;
    e->left = left;
    e->uid_len = uid_len;
    memcpy(e->uid, uid, uid_len);
}

static void poll(uint8_t reader, const uint8_t (*uids)[7], int n)
{
    for (int i = 0; i < n; i++)
        tags_seen(reader, uids[i], 7);
    tags_end_poll(reader);
}

int main(void)
{
    const uint8_t uids[3][7] = {{4, 1, 2, 3, 4, 5, 6}, {4, 1, 2, 3, 4, 5, 7}, {4, 9, 9, 9, 9, 9, 9}};
    tags_init(record);

    /* arrival on the first complete read, once */
    poll(0, uids, 2);
    CHECK(n_events == 2 && !events[0].left && !events[1].left, "two arrivals expected, got %d", n_events);
    poll(0, uids, 2);
    CHECK(n_events == 2 && tags_present() == 2, "a tag still present was reported again");

    /* one missed poll is a flicker, not a departure */
    poll(0, uids, 1);
    CHECK(n_events == 2, "a single missed poll made a tag leave");
    poll(0, uids, 2);
    poll(0, uids, 1);
    poll(0, uids, 1);
    CHECK(n_events == 3 && events[2].left && events[2].reader == 0 && !memcmp(events[2].uid, uids[1], 7),
          "absent for %d polls did not make uid[1] leave", TAG_LEFT_POLLS);
    CHECK(tags_present() == 1, "present count %u", tags_present());

    /* a tag found by another reader has moved: it leaves the old zone first, then arrives (one presence) */
    poll(5, uids, 1);
    CHECK(n_events == 5 && events[3].reader == 0 && events[3].left && events[4].reader == 5 && !events[4].left,
          "a move was not reported as left-then-arrived");
    CHECK(tags_present() == 1, "present count %u after a move", tags_present());
    poll(0, uids + 2, 1); /* reader 0 sees another tag */
    CHECK(n_events == 6 && tags_present() == 2, "present count %u", tags_present());

    /* polls of one reader never age another reader's tags */
    for (int i = 0; i < 5; i++)
        tags_end_poll(7);
    CHECK(n_events == 6, "an empty poll of reader 7 touched other zones");

    /* inventory repeats every present tag as arrived */
    int before = n_events;
    tags_inventory();
    CHECK(n_events == before + 2 && !events[before].left && !events[before + 1].left, "inventory gave %d",
          n_events - before);

    /* a full pool: the extra tag is counted, not stored, and reported once room frees up */
    tags_init(record);
    n_events = 0;
    uint8_t uid[7] = {4, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < TAG_SLOTS; i++) {
        uid[1] = (uint8_t)i;
        uid[2] = (uint8_t)(i >> 8);
        tags_seen(9, uid, 7);
    }
    CHECK(tags_present() == TAG_SLOTS && n_events == TAG_SLOTS, "pool did not fill: %u", tags_present());
    const uint8_t extra[7] = {4, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE};
    tags_seen(3, extra, 7);
    CHECK(tags_dropped() == 1 && n_events == TAG_SLOTS, "a tag beyond the pool was stored or reported");
    tags_end_poll(3);
    for (int k = 0; k <= TAG_LEFT_POLLS; k++)
        tags_end_poll(9); /* the poll that saw them, then TAG_LEFT_POLLS empty ones: all leave */
    CHECK(tags_present() == 0 && n_events == 2 * TAG_SLOTS, "pool did not empty: %u", tags_present());
    tags_seen(3, extra, 7);
    CHECK(tags_present() == 1 && events[n_events - 1].reader == 3, "the dropped tag was not reported later");

    /* 4- and 10-byte UIDs; a wrong length is ignored */
    const uint8_t u4[4] = {1, 2, 3, 4}, u10[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    tags_seen(1, u4, 4);
    tags_seen(1, u10, 10);
    tags_seen(1, u10, 11);
    CHECK(tags_present() == 3 && events[n_events - 1].uid_len == 10, "UID sizes mishandled");

    /* an incomplete poll (a stack read "uncertain") makes nobody leave, and does not count as a miss */
    const uint8_t chip_a[8] = {0xE0, 4, 1, 2, 3, 4, 5, 6}, chip_b[8] = {0xE0, 4, 1, 2, 3, 4, 5, 7};
    tags_seen(16, chip_a, 8);
    tags_seen(16, chip_b, 8);
    tags_end_poll(16);
    int held_from = n_events;
    for (int k = 0; k < 5; k++) {
        tags_seen(16, chip_a, 8); /* the reader proved only chip_a, again and again */
        tags_hold_poll(16);
    }
    CHECK(n_events == held_from, "an incomplete poll made a chip leave");
    tags_seen(16, chip_a, 8); /* complete polls without chip_b: it leaves after TAG_LEFT_POLLS of them */
    tags_end_poll(16);
    CHECK(n_events == held_from, "one complete miss after incomplete polls was already a departure");
    tags_seen(16, chip_a, 8);
    tags_end_poll(16);
    CHECK(n_events == held_from + 1 && events[n_events - 1].left && !memcmp(events[n_events - 1].uid, chip_b, 8),
          "chip_b did not leave after %d complete polls without it", TAG_LEFT_POLLS);

    printf("tag table host tests: %d checks, %d failed (%d slots of %zu bytes = %zu bytes)\n", checks, failures,
           TAG_SLOTS, sizeof(tag_slot_t), TAG_SLOTS * sizeof(tag_slot_t));
    return failures ? 1 : 0;
}

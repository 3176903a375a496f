/*
 * The atomic-replace sequences behind docs/PERFORMANCE.md's "File system" section,
 * timed in C so no library overhead hides the system calls' own cost.
 *
 *   gcc -O2 -o /tmp/atomic_sequences Benchmarks/Scripts/atomic_sequences.c
 *   /tmp/atomic_sequences DIR [CALLS]     (DIR on the disk under test; default 300 calls)
 *
 * Each call of each sequence replaces DIR/data.bin with 4 KiB; the sequences
 * alternate so they share the disk's moods. Prints the median and quartiles.
 *
 * The O_TMPFILE sequences (3, 5, 7) flush the file while it has no link and
 * link it afterwards. With a journal the link count travels with the
 * directory entry; on ext4 without one (this project's machines) only
 * writeback stores it, and ext4 keeps no orphan record there either, so a
 * power loss before that leaves data.bin naming an inode with no links:
 * neither the old file nor the new. Sequence 9 closes the gap by flushing
 * the file again after its link (the flush that also writes the new entry),
 * which costs a third flush.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static char contents[4096];
static int directory;

static double microseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

/* A new temporary file in the directory, written and flushed. */
static int flushed_temporary(void) {
    int fd = openat(directory, ".tmpx", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    write(fd, contents, sizeof contents);
    fsync(fd);
    return fd;
}

/* An unnamed file (O_TMPFILE: its flush writes no directory entry), written,
 * flushed, then linked into the directory as .tmpx. */
static void linked_temporary(void) {
    char path[64];
    int fd = openat(directory, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    write(fd, contents, sizeof contents);
    fsync(fd);
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    linkat(AT_FDCWD, path, directory, ".tmpx", AT_SYMLINK_FOLLOW);
    close(fd);
}

/* .tmpx exchanged with data.bin, the old file held (O_PATH) across its unlink
 * and the directory flush; the clock stops before the hold is let go. */
static double exchange_held(double start) {
    renameat2(directory, ".tmpx", directory, "data.bin", RENAME_EXCHANGE);
    int old = openat(directory, ".tmpx", O_PATH | O_NOFOLLOW | O_CLOEXEC);
    unlinkat(directory, ".tmpx", 0);
    fsync(directory);
    double elapsed = microseconds() - start;
    close(old);
    return elapsed;
}

static double replace(int sequence) {
    double start = microseconds(), elapsed;
    int fd, old;
    char path[64];
    switch (sequence) {
    case 0: /* Foundation's Data.write(.atomic): one flush, the rename is not made durable. */
        fd = flushed_temporary();
        renameat(directory, ".tmpx", directory, "data.bin");
        close(fd);
        return microseconds() - start;
    case 1: /* Ours: the rename made durable by flushing the directory. */
        close(flushed_temporary());
        renameat(directory, ".tmpx", directory, "data.bin");
        fsync(directory);
        return microseconds() - start;
    case 2: /* Exchange the names; unlinking the old file (a discard) is left off the clock. */
        close(flushed_temporary());
        renameat2(directory, ".tmpx", directory, "data.bin", RENAME_EXCHANGE);
        fsync(directory);
        elapsed = microseconds() - start;
        unlinkat(directory, ".tmpx", 0);
        return elapsed;
    case 4: /* As 2, with the old file's unlink on the clock (no temporary left when it returns). */
        close(flushed_temporary());
        renameat2(directory, ".tmpx", directory, "data.bin", RENAME_EXCHANGE);
        fsync(directory);
        unlinkat(directory, ".tmpx", 0);
        return microseconds() - start;
    case 5: /* As 3, with the old file's unlink on the clock. */
        linked_temporary();
        renameat2(directory, ".tmpx", directory, "data.bin", RENAME_EXCHANGE);
        fsync(directory);
        unlinkat(directory, ".tmpx", 0);
        return microseconds() - start;
    case 6: /* As 1, holding the old file open (O_PATH) across the rename; its release is off the clock. */
        old = openat(directory, "data.bin", O_PATH | O_NOFOLLOW | O_CLOEXEC);
        close(flushed_temporary());
        renameat(directory, ".tmpx", directory, "data.bin");
        fsync(directory);
        elapsed = microseconds() - start;
        close(old);
        return elapsed;
    case 7: /* As 5, holding the old file open (O_PATH) across its unlink; its release is off the clock. */
        linked_temporary();
        return exchange_held(start);
    case 8: /* As 7, but the unnamed file linked before it is written (so a failed link could still
               fall back before any byte is written): its flush then pays for the new entry again. */
        fd = openat(directory, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        linkat(AT_FDCWD, path, directory, ".tmpx", AT_SYMLINK_FOLLOW);
        write(fd, contents, sizeof contents);
        fsync(fd);
        close(fd);
        return exchange_held(start);
    case 9: /* As 7, with the inode flushed again once linked (its link count; safe without a journal). */
        fd = openat(directory, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        write(fd, contents, sizeof contents);
        fsync(fd);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        linkat(AT_FDCWD, path, directory, ".tmpx", AT_SYMLINK_FOLLOW);
        fsync(fd);
        close(fd);
        return exchange_held(start);
    case 3:
    default: /* An unnamed file (its flush writes no directory entry), linked, then exchanged. */
        linked_temporary();
        renameat2(directory, ".tmpx", directory, "data.bin", RENAME_EXCHANGE);
        fsync(directory);
        elapsed = microseconds() - start;
        unlinkat(directory, ".tmpx", 0);
        return elapsed;
    }
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR [CALLS]\n", argv[0]);
        return 64;
    }
    directory = open(argv[1], O_RDONLY | O_DIRECTORY);
    if (directory < 0) {
        perror(argv[1]);
        return 1;
    }
    int fd = openat(directory, "data.bin", O_WRONLY | O_CREAT, 0644);
    write(fd, contents, sizeof contents);
    close(fd);
    int calls = argc > 2 ? atoi(argv[2]) : 300;
    enum { sequences = 10 };
    static const char *names[sequences] = {
        "Foundation order (1 flush)", "ours today (2 flushes)",
        "exchange, unlink off the clock", "O_TMPFILE+link+exchange, unlink off",
        "exchange, unlink on the clock", "O_TMPFILE+link+exchange, unlink on",
        "ours, old file held, released off", "O_TMPFILE+exchange, unlink on, held",
        "O_TMPFILE linked first, held", "O_TMPFILE, re-flushed once linked, held"};
    double *times = malloc(sizeof(double) * calls * sequences);
    for (int call = 0; call < calls; call++)
        for (int sequence = 0; sequence < sequences; sequence++)
            times[sequence * calls + call] = replace(sequence);
    for (int sequence = 0; sequence < sequences; sequence++) {
        double *own = times + sequence * calls;
        qsort(own, calls, sizeof(double), ascending);
        printf("%-40s median %6.1f us p25 %6.1f p75 %6.1f\n", names[sequence],
               own[calls / 2], own[calls / 4], own[3 * calls / 4]);
    }
    free(times);
    return 0;
}

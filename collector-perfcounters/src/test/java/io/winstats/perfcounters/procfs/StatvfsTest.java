package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class StatvfsTest {
  @Test
  @EnabledOnOs(OS.LINUX)
  void matchesWhatDfReportsForTheSameFilesystem(@TempDir Path dir) throws Exception {
    // df -i prints the same f_files/f_ffree; inodes taken or freed in between change only the free count. A build
    // beside this one (a land of another branch, containerd unpacking layers) moved it by 95 once: the margin is 4096
    // of this filesystem's millions, still far below what another filesystem's counts would differ by.
    long[] df = df("-i", dir);
    Statvfs.Inodes inodes = Statvfs.inodes(dir);
    assertThat(inodes).isNotNull();
    assertThat(inodes.total()).isEqualTo(df[0]);
    assertThat(inodes.free()).isBetween(df[2] - 4096, df[2] + 4096);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void sizesMatchWhatDfReportsForTheSameFilesystem(@TempDir Path dir) throws Exception {
    // df -B1 prints f_frsize times f_blocks, f_blocks - f_bfree and f_bavail; other writers may move used and
    // available by a little between the two reads.
    long[] df = df("-B1", dir);
    Statvfs.Usage usage = Statvfs.usage(dir);
    assertThat(usage).isNotNull();
    assertThat(usage.totalBytes()).isEqualTo(df[0]);
    assertThat(usage.totalBytes() - usage.freeBytes()).isBetween(df[1] - (64 << 20), df[1] + (64 << 20));
    assertThat(usage.availableBytes()).isBetween(df[2] - (64 << 20), df[2] + (64 << 20));
    assertThat(usage.availableBytes()).isLessThanOrEqualTo(usage.freeBytes());
    assertThat(usage.inodes()).isNotNull();
    assertThat(usage.inodes().total()).isEqualTo(df("-i", dir)[0]);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void seesAFileTakeAnInodeOnAFilesystemWithFewInodes(@TempDir Path dir) throws Exception {
    // /dev/shm is tmpfs, whose free inodes drop by one per file; another process creating files there between the
    // two reads could add a few.
    Path shm = Path.of("/dev/shm");
    Statvfs.Inodes before = Statvfs.inodes(shm);
    Path file = Files.createTempFile(shm, "statvfs-", ".test");
    try {
      Statvfs.Inodes after = Statvfs.inodes(shm);
      assertThat(after.total()).isEqualTo(before.total());
      assertThat(before.free() - after.free()).isBetween(1L, 4L);
    } finally {
      Files.delete(file);
    }
  }

  @Test
  void aMissingPathHasNoCounts() {
    assertThat(Statvfs.inodes(Path.of("/nonexistent/path/for/statvfs"))).isNull();
    assertThat(Statvfs.usage(Path.of("/nonexistent/path/for/statvfs"))).isNull();
  }

  @Test
  void countsThatAreNotCountsAreRefused() {
    assertThat(Statvfs.fromStruct(-1, 0)).as("above 2^63 unsigned").isNull();
    assertThat(Statvfs.fromStruct(10, 11)).as("more free than total").isNull();
    assertThat(Statvfs.fromStruct(0, 0)).as("btrfs reports no inode limit").isEqualTo(new Statvfs.Inodes(0, 0));
  }

  /** Size (df -B1: total, used, available) or inode (df -i: total, used, free) columns of df's line for dir. */
  private static long[] df(String columns, Path dir) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("df", "-P", columns, dir.toString()).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    String[] fields = out.strip().split("\n")[1].trim().split("\\s+");
    return new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3])};
  }
}

package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.NodeSourceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DiskStatsTest {

  @Test
  void keepsOnlyTheWholeDiskOfTheCapturedFile() {
    DiskStats stats = DiskStats.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "diskstats"));

    // loop0..loop7 and zram0 are left out
    assertThat(stats.disks())
        .containsExactly(
            DiskIoCounters.builder("vda")
                .readBytes(3331954L * 512)
                .writtenBytes(1731304L * 512)
                .reads(50275)
                .writes(10508)
                .readTimeNanos(29464L * 1_000_000)
                .writeTimeNanos(6494L * 1_000_000)
                .ioTimeNanos(8880L * 1_000_000)
                .weightedIoTimeNanos(36498L * 1_000_000)
                .build());
  }

  @ParameterizedTest(name = "{0} kept={1}")
  @CsvSource({
    "sda, true", "sda1, false", "vda, true", "vda2, false", "xvda, true", "xvda1, false", "hda3, false",
    "nvme0n1, true", "nvme0n1p1, false", "nvme10n2p3, false", "loop0, false", "ram15, false", "zram0, false",
    "fd0, false", "dm-0, true", "md127, true", "mmcblk0, true", "sr0, true",
  })
  void followsNodeExportersDefaultDeviceExclude(String device, boolean kept) {
    String line = " 8 0 " + device + " 1 0 8 4 2 0 16 5 0 9 9\n";

    assertThat(DiskStats.parse(line).disks()).hasSize(kept ? 1 : 0);
  }

  @Test
  void theElevenFieldFormatOfOlderKernelsParses() {
    DiskIoCounters disk = DiskStats.parse("   8       0 sda 10 0 80 4 20 0 160 5 1 9 9\n").disks().get(0);

    assertThat(disk.readBytes()).isEqualTo(80 * 512);
    assertThat(disk.writtenBytes()).isEqualTo(160 * 512);
    assertThat(disk.queueLength()).isEqualTo(1);
    assertThat(disk.ioTimeNanos()).isEqualTo(9_000_000);
  }

  @Test
  void rejectsShortLinesAndGarbage() {
    assertThatThrownBy(() -> DiskStats.parse("8 0 sda 1 2 3\n"))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED))
        .hasMessageContaining("at least 14");
    assertThatThrownBy(() -> DiskStats.parse("8 0 sda 1 0 8 4 2 0 16 5 0 nine 9\n"))
        .isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("not a counter");
  }
}

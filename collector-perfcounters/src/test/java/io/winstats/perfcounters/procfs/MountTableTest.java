package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.procfs.MountTable.Mount;
import org.junit.jupiter.api.Test;

class MountTableTest {

  @Test
  void keepsOnlyTheRealFilesystemOfTheCapturedFile() {
    MountTable table = MountTable.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "self/mounts"));

    assertThat(table.mounts()).hasSize(19);
    // proc, sysfs, devtmpfs, tmpfs, devpts, cgroup and cgroup2 are all dropped
    assertThat(table.realFilesystems()).containsExactly(new Mount("/dev/vda", "/", "ext4", false));
  }

  @Test
  void decodesOctalEscapesAndKeepsTheLastMountOfAMountPoint() {
    String text =
        """
        /dev/sdb1 /mnt/my\\040disk ext4 rw 0 0
        /dev/sdc1 /data xfs rw 0 0
        /dev/sdd1 /data btrfs ro,relatime 0 0
        /dev/sde1 /var/lib/docker/overlay2 ext4 rw 0 0
        /dev/sdf1 /dev/foo ext4 rw 0 0
        server:/x /nfs nfs4 rw,proto=tcp 0 0
        """;

    assertThat(MountTable.parse(text).realFilesystems())
        .containsExactly(
            new Mount("/dev/sdb1", "/mnt/my disk", "ext4", false),
            new Mount("/dev/sdd1", "/data", "btrfs", true),
            new Mount("server:/x", "/nfs", "nfs4", false));
  }
}

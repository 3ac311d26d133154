package io.winstats.cri;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.procfs.Statvfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class HostFilesTest {

  @Test
  void regularFilesSumsTheFilesOfTheDirectoryButNotOfItsSubdirectories(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve("0.log"), new byte[100]);
    Files.write(dir.resolve("0.log.20261121-080000.gz"), new byte[50]);
    Files.createDirectories(dir.resolve("nested"));
    Files.write(dir.resolve("nested").resolve("other.log"), new byte[1_000]);

    assertThat(HostFiles.LOCAL.regularFiles(dir.toString())).isEqualTo(new HostFiles.Usage(150, 2));
  }

  @Test
  void anEmptyDirectoryUsesNothingAndAMissingOneIsNotVisible(@TempDir Path dir) {
    assertThat(HostFiles.LOCAL.regularFiles(dir.toString())).isEqualTo(new HostFiles.Usage(0, 0));
    assertThat(HostFiles.LOCAL.regularFiles(dir.resolve("gone").toString())).isNull();
  }

  @Test
  void capacityOfAVisiblePathIsTheFileStoresWithStatvfsInodesAndOfAMissingOneIsNull(@TempDir Path dir) throws IOException {
    FilesystemCapacity capacity = HostFiles.LOCAL.capacity(dir.toString());

    assertThat(capacity).isNotNull();
    assertThat(capacity.capacityBytes()).isEqualTo(Files.getFileStore(dir).getTotalSpace()).isPositive();
    assertThat(capacity.availableBytes()).isBetween(0L, capacity.capacityBytes());
    if (OS.LINUX.isCurrentOs()) {
      assertThat(capacity.inodes()).as("statvfs f_files").isEqualTo(Statvfs.inodes(dir).total()).isPositive();
      assertThat(capacity.inodesFree()).isBetween(0L, capacity.inodes());
    } else {
      assertThat(capacity.inodes()).as("NTFS has none").isNull();
    }
    assertThat(HostFiles.LOCAL.capacity(dir.resolve("not/there").toString())).isNull();
  }
}

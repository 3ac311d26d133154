package io.winstats.cri.rounds;

import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.InodeCounter;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostFilesTest {
  private static final InodeCounter.Inodes COUNTED = new InodeCounter.Inodes(1_000, 400);
  private static final HostFiles LOCAL = HostFiles.local(path -> COUNTED);

  @Test
  void regularFilesSumsTheFilesOfTheDirectoryButNotOfItsSubdirectories(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve("0.log"), new byte[100]);
    Files.write(dir.resolve("0.log.20261121-080000.gz"), new byte[50]);
    Files.createDirectories(dir.resolve("nested"));
    Files.write(dir.resolve("nested").resolve("other.log"), new byte[1_000]);

    assertThat(LOCAL.regularFiles(dir.toString())).isEqualTo(new HostFiles.Usage(150, 2));
  }

  @Test
  void anEmptyDirectoryUsesNothingAndAMissingOneIsNotVisible(@TempDir Path dir) {
    assertThat(LOCAL.regularFiles(dir.toString())).isEqualTo(new HostFiles.Usage(0, 0));
    assertThat(LOCAL.regularFiles(dir.resolve("gone").toString())).isNull();
  }

  @Test
  void capacityOfAVisiblePathIsTheFileStoresWithTheInjectedInodesAndOfAMissingOneIsNull(@TempDir Path dir) throws IOException {
    FilesystemCapacity capacity = LOCAL.capacity(dir.toString());

    assertThat(capacity).isNotNull();
    assertThat(capacity.capacityBytes()).isEqualTo(Files.getFileStore(dir).getTotalSpace()).isPositive();
    assertThat(capacity.availableBytes()).isBetween(0L, capacity.capacityBytes());
    assertThat(capacity.inodes()).isEqualTo(1_000);
    assertThat(capacity.inodesFree()).isEqualTo(400);
    assertThat(HostFiles.local(InodeCounter.NONE).capacity(dir.toString()).inodes()).isNull();
    assertThat(LOCAL.capacity(dir.resolve("not/there").toString())).isNull();
  }
}

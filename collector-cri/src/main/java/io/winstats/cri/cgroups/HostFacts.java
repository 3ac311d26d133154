package io.winstats.cri.cgroups;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the host offers, read at the start and after each {@code specRefresh}.
 *
 * @param readAtNanos when it was read, on the reader's clock
 * @param blkioPolicies v1: the files of the block IO policies in runc's order that can hold figures here
 * @param hugePageSizes the sizes of {@code /sys/kernel/mm/hugepages}, in runc's names
 * @param hugePagesMove whether some pool has pages or may overcommit: usage can change between rounds
 * @param hugetlbV1 v1: whether the hugetlb controller is mounted
 */
record HostFacts(
    long readAtNanos,
    List<BlkioController.PolicyFiles> blkioPolicies,
    List<String> hugePageSizes,
    boolean hugePagesMove,
    boolean hugetlbV1) {

  static HostFacts read(Path cgroupRoot, Path sysRoot, CgroupVersion version, long nowNanos) {
    List<String> sizes = new ArrayList<>();
    boolean move = false;
    Path pools = sysRoot.resolve("kernel").resolve("mm").resolve("hugepages");
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(pools, "hugepages-*kB")) {
      for (Path pool : dirs) {
        String name = pool.getFileName().toString();
        sizes.add(pageSizeName(Long.parseLong(name.substring("hugepages-".length(), name.length() - 2))));
        Long pages = KernelFile.readSingle(pool.resolve("nr_hugepages").toString());
        Long overcommit = KernelFile.readSingle(pool.resolve("nr_overcommit_hugepages").toString());
        move |= (pages != null && pages > 0) || (overcommit != null && overcommit > 0);
      }
    } catch (IOException | NumberFormatException e) {
      // No huge page support: no hugetlb figures.
    }
    Collections.sort(sizes);
    boolean v1 = version == CgroupVersion.V1;
    return new HostFacts(
        nowNanos,
        v1 ? BlkioController.policiesV1(cgroupRoot, sysRoot) : List.of(),
        List.copyOf(sizes),
        move,
        v1 && Files.isDirectory(cgroupRoot.resolve("hugetlb")));
  }

  /** runc's name for a page size in kB ({@code utils.go getHugePageSizeFromFilenames}): 2048 -> 2MB. */
  static String pageSizeName(long kb) {
    if (kb >= 1 << 20) {
      return (kb >> 20) + "GB";
    }
    if (kb >= 1 << 10) {
      return (kb >> 10) + "MB";
    }
    return kb + "KB";
  }
}

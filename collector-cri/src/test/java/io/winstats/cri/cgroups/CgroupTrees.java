package io.winstats.cri.cgroups;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes cgroup fixture trees in the kernel's file formats (Documentation/admin-guide/cgroup-v1/*.rst,
 * Documentation/admin-guide/cgroup-v2.rst, Documentation/accounting/psi.rst), with values chosen so that every
 * field is distinct.
 */
final class CgroupTrees {
  static final String ID = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  static final String SANDBOX = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";

  private CgroupTrees() {}

  static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One v1 container cgroup at {@code path} in every controller this reader uses. */
  static void v1Container(Path root, String path, int pid) {
    String p = path.substring(1);
    write(root.resolve("cpu").resolve(p).resolve("cpu.stat"),
        "nr_periods 120\nnr_throttled 45\nthrottled_time 2250000000\nnr_bursts 0\nburst_time 0\n");
    write(root.resolve("cpuacct").resolve(p).resolve("cpuacct.stat"), "user 314\nsystem 27\n");
    write(root.resolve("memory").resolve(p).resolve("memory.stat"),
        "cache 11\nrss 12\nrss_huge 0\nshmem 0\nmapped_file 13\nswap 14\npgfault 15\npgmajfault 16\n"
            + "inactive_file 17\ntotal_cache 1048576\ntotal_rss 2097152\ntotal_mapped_file 4096\n"
            + "total_swap 8192\ntotal_pgfault 999\ntotal_inactive_file 512\n");
    write(root.resolve("memory").resolve(p).resolve("memory.use_hierarchy"), "1\n");
    write(root.resolve("memory").resolve(p).resolve("memory.failcnt"), "7\n");
    write(root.resolve("memory").resolve(p).resolve("memory.max_usage_in_bytes"), "5242880\n");
    write(root.resolve("memory").resolve(p).resolve("memory.kmem.usage_in_bytes"), "65536\n");
    write(root.resolve("memory").resolve(p).resolve("memory.oom_control"),
        "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
    write(root.resolve("blkio").resolve(p).resolve("blkio.throttle.io_service_bytes_recursive"),
        "254:0 Read 40960\n254:0 Write 1048576\n254:0 Sync 0\n254:0 Async 1089536\n254:0 Discard 0\n"
            + "254:0 Total 1089536\nTotal 1089536\n");
    write(root.resolve("blkio").resolve(p).resolve("blkio.throttle.io_serviced_recursive"),
        "254:0 Read 10\n254:0 Write 256\n254:0 Sync 0\n254:0 Async 266\n254:0 Discard 0\n254:0 Total 266\n"
            + "Total 266\n");
    // The kernel shows a policy's files in every cgroup of the hierarchy, the root included (with "Total 0" there).
    write(root.resolve("blkio").resolve("blkio.throttle.io_service_bytes_recursive"), "Total 0\n");
    write(root.resolve("blkio").resolve("blkio.throttle.io_serviced_recursive"), "Total 0\n");
    write(root.resolve("pids").resolve(p).resolve("cgroup.procs"), pid + "\n" + (pid + 5) + "\n");
    write(root.resolve("pids").resolve(p).resolve("pids.current"), "3\n");
    write(root.resolve("pids").resolve(p).resolve("pids.max"), "max\n");
  }

  /** One v2 cgroup at {@code path}. */
  static void v2Cgroup(Path root, String path, int pid) {
    Path d = root.resolve(path.substring(1));
    write(d.resolve("cpu.stat"),
        "usage_usec 3410000\nuser_usec 3140000\nsystem_usec 270000\nnr_periods 120\nnr_throttled 45\n"
            + "throttled_usec 2250000\nnr_bursts 0\nburst_usec 0\n");
    write(d.resolve("memory.stat"),
        "anon 2097152\nfile 1048576\nkernel 65536\nkernel_stack 16384\nfile_mapped 4096\nfile_dirty 0\n"
            + "inactive_file 512\npgfault 15\npgmajfault 16\n");
    write(d.resolve("memory.events"), "low 0\nhigh 0\nmax 7\noom 3\noom_kill 2\noom_group_kill 0\n");
    write(d.resolve("memory.swap.current"), "8192\n");
    write(d.resolve("memory.swap.max"), "1048576\n");
    write(d.resolve("memory.peak"), "5242880\n");
    write(d.resolve("io.stat"), "254:0 rbytes=40960 wbytes=1048576 rios=10 wios=256 dbytes=0 dios=0\n");
    write(d.resolve("cgroup.procs"), pid + "\n");
    write(d.resolve("pids.current"), "1\n");
    write(d.resolve("pids.max"), "1024\n");
    write(d.resolve("cpu.pressure"),
        "some avg10=1.50 avg60=0.75 avg300=0.10 total=1234567\nfull avg10=0.50 avg60=0.25 avg300=0.05 total=234567\n");
    write(d.resolve("memory.pressure"),
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=3000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=1000\n");
    write(d.resolve("io.pressure"),
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=5000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=4000\n");
    write(root.resolve("cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
  }

  /** A process with two open files, one of them a socket, and a {@code limits} file. */
  static void process(Path proc, int pid, String maxOpenFiles) {
    try {
      Path fd = proc.resolve(pid + "/fd");
      Files.createDirectories(fd);
      Files.createSymbolicLink(fd.resolve("0"), Path.of("pipe:[67890]"));
      Files.createSymbolicLink(fd.resolve("3"), Path.of("socket:[12345]"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    write(proc.resolve(pid + "/limits"),
        "Limit                     Soft Limit           Hard Limit           Units     \n"
            + "Max cpu time              unlimited            unlimited            seconds   \n"
            + "Max open files            " + maxOpenFiles + "                 524288               files     \n");
  }

  /** A block device as {@code /sys} shows it: its {@code dev/block} uevent and its active I/O scheduler. */
  static void device(Path sys, String majMin, String name, String scheduler) {
    write(sys.resolve("dev/block").resolve(majMin).resolve("uevent"),
        "MAJOR=254\nMINOR=0\nDEVNAME=" + name + "\nDEVTYPE=disk\n");
    write(sys.resolve("block").resolve(name).resolve("queue/scheduler"),
        "none mq-deadline kyber bfq".replace(scheduler, "[" + scheduler + "]") + "\n");
  }

  /** A huge page pool of {@code kb} kB pages in {@code /sys/kernel/mm/hugepages}. */
  static void hugePagePool(Path sys, long kb, long pages) {
    Path pool = sys.resolve("kernel/mm/hugepages/hugepages-" + kb + "kB");
    write(pool.resolve("nr_hugepages"), pages + "\n");
    write(pool.resolve("nr_overcommit_hugepages"), "0\n");
  }
}

package io.winstats.exporter.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU one private containerd costs the machine: containerd itself and its shims, each with the children it reaped
 * ({@code cutime + cstime} of {@code /proc/<pid>/stat}: the {@code runc ps}, {@code runc state} and other short-lived
 * {@code runc} runs a stats call makes a shim start). Per process, so the other work on this shared machine does not
 * enter it, unlike the machine's busy time. The containers' own processes are not counted (they are the pods' load,
 * idle here); a shim that exits inside a window (a removed pod) takes its ticks with it.
 *
 * <p>The processes are told apart from any other containerd on the machine by {@code dir}, the harness's work
 * directory, which containerd's command line ({@code --config DIR/config.toml}) and every shim's ({@code -address
 * DIR/c.sock}) name.
 */
final class RuntimeCpu {
  private final String dir;

  RuntimeCpu(Path dir) {
    this.dir = dir.toAbsolutePath().normalize().toString();
  }

  /** Clock ticks so far of containerd and its shims, their reaped children included; with the process count. */
  Ticks ticks() throws IOException {
    long ticks = 0;
    int processes = 0;
    try (DirectoryStream<Path> proc =
        Files.newDirectoryStream(Path.of("/proc"), p -> isPid(p.getFileName().toString()))) {
      for (Path p : proc) {
        String[] argv;
        String stat;
        try {
          argv = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8).split("\0");
          if (argv.length == 0 || !ours(argv)) {
            continue;
          }
          stat = Files.readString(p.resolve("stat"));
        } catch (IOException gone) {
          continue; // exited between the listing and the read
        }
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // utime, stime, cutime, cstime: fields 14-17 of proc(5)
        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        processes++;
      }
    }
    return new Ticks(ticks, processes);
  }

  record Ticks(long ticks, int processes) {}

  private boolean ours(String[] argv) {
    String name = Path.of(argv[0]).getFileName().toString();
    if (!name.equals("containerd") && !name.startsWith("containerd-shim")) {
      return false;
    }
    for (String a : argv) {
      if (a.startsWith(dir)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isPid(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return false;
      }
    }
    return !name.isEmpty();
  }
}

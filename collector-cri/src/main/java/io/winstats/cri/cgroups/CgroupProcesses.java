package io.winstats.cri.cgroups;

import org.jspecify.annotations.Nullable;

/**
 * The processes in one cgroup, as cAdvisor's {@code processStatsFromProcs} and {@code setThreadsStats} count them.
 *
 * @param processes lines of {@code cgroup.procs}
 * @param threads {@code pids.current}, or {@code null} without the pids controller
 * @param threadsMax {@code pids.max}, 0 for {@code max} (cAdvisor: "infinity if value is zero"); {@code null} without
 *     the pids controller
 * @param fileDescriptors entries of {@code /proc/<pid>/fd} summed over the processes
 * @param sockets those of them that link to {@code socket:[...]}
 * @param maxOpenFilesSoft the soft {@code Max open files} limit of the cgroup's lowest pid, -1 for unlimited;
 *     {@code null} when it cannot be read
 */
public record CgroupProcesses(
    long processes,
    @Nullable Long threads,
    @Nullable Long threadsMax,
    long fileDescriptors,
    long sockets,
    @Nullable Long maxOpenFilesSoft) {
  /** A builder with every component 0, empty or absent until set by name. */
  public static Builder builder() {
    return new Builder();
  }

  /** Names each component of a {@link CgroupProcesses}; not thread-safe. */
  public static final class Builder {
    private long processes;
    private @Nullable Long threads;
    private @Nullable Long threadsMax;
    private long fileDescriptors;
    private long sockets;
    private @Nullable Long maxOpenFilesSoft;

    private Builder() {
    }

    public Builder processes(long value) {
      this.processes = value;
      return this;
    }

    public Builder threads(@Nullable Long value) {
      this.threads = value;
      return this;
    }

    public Builder threadsMax(@Nullable Long value) {
      this.threadsMax = value;
      return this;
    }

    public Builder fileDescriptors(long value) {
      this.fileDescriptors = value;
      return this;
    }

    public Builder sockets(long value) {
      this.sockets = value;
      return this;
    }

    public Builder maxOpenFilesSoft(@Nullable Long value) {
      this.maxOpenFilesSoft = value;
      return this;
    }

    public CgroupProcesses build() {
      return new CgroupProcesses(processes, threads, threadsMax, fileDescriptors, sockets, maxOpenFilesSoft);
    }
  }
}

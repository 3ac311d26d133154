package io.winstats.cri.cgroups;

import io.soabase.recordbuilder.core.RecordBuilder;
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
@RecordBuilder
public record CgroupProcesses(
    long processes,
    @Nullable Long threads,
    @Nullable Long threadsMax,
    long fileDescriptors,
    long sockets,
    @Nullable Long maxOpenFilesSoft) {
  /** A builder with every component 0, empty or absent until set by name. */
  public static CgroupProcessesBuilder builder() {
    return CgroupProcessesBuilder.builder();
  }
}

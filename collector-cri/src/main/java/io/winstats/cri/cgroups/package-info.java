/**
 * Linux cgroup accounting for the containers and pods the runtime reported: what CRI does not carry (CFS throttling,
 * user/system CPU, page cache, failcnt, block IO, processes, OOM kills, pressure stall information). Reads cgroup v1
 * (one hierarchy per controller, with the unified hierarchy of a hybrid host for PSI) and cgroup v2. A leaf package:
 * plain files in, immutable records out, no gRPC.
 */
@NullMarked
package io.winstats.cri.cgroups;

import org.jspecify.annotations.NullMarked;

/**
 * The CRI collector's API: {@link io.winstats.cri.CriStatsReader}, the immutable samples it returns ({@link
 * io.winstats.cri.RuntimeSample}, {@link io.winstats.cri.PodSample}, {@link io.winstats.cri.ContainerSample} and
 * their parts), and what opens one ({@link io.winstats.cri.CriEndpoint}, {@link io.winstats.cri.StatsCall}) or says
 * why a round failed ({@link io.winstats.cri.CriException}). No gRPC or protobuf type appears here: the rounds in
 * {@code cri.rounds} map them to these records.
 */
@NullMarked
package io.winstats.cri;

import org.jspecify.annotations.NullMarked;

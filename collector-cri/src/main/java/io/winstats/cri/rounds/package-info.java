/**
 * The rounds behind {@link io.winstats.cri.CriStatsReader}: which runtime.v1 calls a round makes ({@code
 * ListPodSandboxStats}, or {@code ListContainerStats} with the listings), the views over both answers, the mapper to
 * the records, the identity and CPU caches, and the gRPC channel over the transports of {@code cri.transport} and
 * {@code cri.npipe}. Everything is package-private but {@link io.winstats.cri.rounds.CriStatsReaders}, which opens a
 * reader.
 */
@NullMarked
package io.winstats.cri.rounds;

import org.jspecify.annotations.NullMarked;

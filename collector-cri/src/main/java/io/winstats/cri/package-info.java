/**
 * Pod and container stats read from the container runtime over CRI runtime.v1 gRPC, as immutable samples. gRPC and
 * protobuf types never leave this module: {@link io.winstats.cri.CriStatsReader} maps them to the records here.
 */
@NullMarked
package io.winstats.cri;

import org.jspecify.annotations.NullMarked;

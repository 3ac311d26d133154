package io.winstats.testing.fences.a;

import io.winstats.testing.fences.b.CycleEnd;

/** One half of a package cycle: {@code fences.a} uses {@code fences.b}, which uses {@code fences.a}. */
public record CycleStart(CycleEnd next) {}

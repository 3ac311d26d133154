package io.winstats.testing.fences.b;

/** Crosses no fence: the control case, so that a rule that flags everything fails its test. */
public record NoCrossing(long bytes) {}

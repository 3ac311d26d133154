package io.winstats.exporter.parts;

/** How one part the daemon depends on stands; {@link #word()} is what the outputs print. */
public enum PartState {
  OK("ok"),
  /** It answers, but something of it does not: a figure is missing or comes from a fallback. */
  DEGRADED("degraded"),
  /** It does not answer; the figures it gives are missing. */
  FAILED("failed"),
  /** Not used on this node or with these settings. */
  NOT_APPLICABLE("not_applicable");

  private final String word;

  PartState(String word) {
    this.word = word;
  }

  public String word() {
    return word;
  }
}

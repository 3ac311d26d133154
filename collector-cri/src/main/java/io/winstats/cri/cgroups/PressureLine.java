package io.winstats.cri.cgroups;

/**
 * One line of a pressure stall information file ({@code some avg10=0.00 avg60=0.00 avg300=0.00 total=0}), as the
 * kernel's Documentation/accounting/psi.rst describes it.
 *
 * @param avg10 share of wall time stalled over the last 10 s, in percent
 * @param avg60 the same over 60 s
 * @param avg300 the same over 300 s
 * @param totalMicros cumulative stall time in microseconds
 */
public record PressureLine(double avg10, double avg60, double avg300, long totalMicros) {
  public PressureLine {
    if (totalMicros < 0) {
      throw new IllegalArgumentException("totalMicros must not be negative: " + totalMicros);
    }
  }
}

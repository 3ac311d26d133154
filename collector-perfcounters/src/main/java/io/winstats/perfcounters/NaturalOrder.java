package io.winstats.perfcounters;

import java.util.Comparator;

/** Orders names with embedded numbers numerically ({@code cpu2 < cpu10}, {@code "0,9" < "0,10"}), else as text. */
public enum NaturalOrder implements Comparator<String> {
  INSTANCE;

  @Override
  public int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (Character.isDigit(ca) && Character.isDigit(cb)) {
        int si = i;
        int sj = j;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isDigit(b.charAt(j))) {
          j++;
        }
        String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
        String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
        int byLength = Integer.compare(na.length(), nb.length());
        if (byLength != 0) {
          return byLength;
        }
        int byDigits = na.compareTo(nb);
        if (byDigits != 0) {
          return byDigits;
        }
      } else {
        if (ca != cb) {
          return Character.compare(ca, cb);
        }
        i++;
        j++;
      }
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}

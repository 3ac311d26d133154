package io.winstats.exporter.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM certificates and private keys with the JDK alone, in the forms Go's {@code tls.X509KeyPair} reads: PKCS#8
 * ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) and SEC 1 ({@code EC PRIVATE KEY}). The two traditional
 * forms are rewrapped as PKCS#8, which is all the JDK's key factories take. Encrypted keys are refused, as Go refuses
 * them. Every failure is an {@link IllegalArgumentException} with a message for the operator.
 */
final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
  // rsaEncryption 1.2.840.113549.1.1.1 and id-ecPublicKey 1.2.840.10045.2.1, DER-encoded with their tag and length.
  private static final byte[] OID_RSA = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 1, 1, 1};
  private static final byte[] OID_EC = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
  private static final byte[] DER_NULL = {0x05, 0x00};
  private static final byte[] INTEGER_ZERO = {0x02, 0x01, 0x00};
  private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS");

  private Pem() {}

  // A parsed block passed along, never compared or hashed.
  @SuppressWarnings("ArrayRecordComponent")
  private record Block(String type, byte[] der) {}

  private static List<Block> blocks(String pem) {
    List<Block> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(pem);
    while (m.find()) {
      try {
        out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2).trim())));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("a " + m.group(1) + " block is not valid base64", e);
      }
    }
    return out;
  }

  /** Every {@code CERTIFICATE} block, in order (leaf first for a chain); at least one. */
  static List<X509Certificate> certificates(String pem) {
    List<X509Certificate> certs = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (Block b : blocks(pem)) {
        if (b.type().equals("CERTIFICATE")) {
          certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
        }
      }
    } catch (CertificateException e) {
      throw new IllegalArgumentException("not a valid X.509 certificate: " + e.getMessage(), e);
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException("no PEM CERTIFICATE block found");
    }
    return List.copyOf(certs);
  }

  /** The first private key block: PKCS#8, PKCS#1 RSA or SEC 1 EC. */
  static PrivateKey privateKey(String pem) {
    for (Block b : blocks(pem)) {
      switch (b.type()) {
        case "PRIVATE KEY" -> {
          return pkcs8(b.der());
        }
        case "RSA PRIVATE KEY" -> {
          return pkcs8(sequence(INTEGER_ZERO, sequence(OID_RSA, DER_NULL), tlv(0x04, b.der())));
        }
        case "EC PRIVATE KEY" -> {
          return pkcs8(sequence(INTEGER_ZERO, sequence(OID_EC, namedCurve(b.der())), tlv(0x04, b.der())));
        }
        case "ENCRYPTED PRIVATE KEY" ->
            throw new IllegalArgumentException("encrypted private keys are not supported; decrypt it first");
        default -> {
          // EC PARAMETERS and other blocks may precede the key, as openssl writes them.
        }
      }
    }
    throw new IllegalArgumentException("no PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block found");
  }

  /** Refuses a key that is not the private half of the certificate's public key. */
  static void checkPair(X509Certificate leaf, PrivateKey key) {
    PublicKey pub = leaf.getPublicKey();
    try {
      if (key instanceof RSAKey rsa) {
        if (!(pub instanceof RSAKey rsaPub) || !rsa.getModulus().equals(rsaPub.getModulus())) {
          throw new IllegalArgumentException("the private key does not match the certificate's public key");
        }
        return;
      }
      String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : key.getAlgorithm();
      byte[] probe = "winstats-exporter key pair check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(pub);
      verifier.update(probe);
      if (!verifier.verify(signature)) {
        throw new IllegalArgumentException("the private key does not match the certificate's public key");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the private key (" + key.getAlgorithm() + ") does not match the certificate's public key ("
              + pub.getAlgorithm() + "): " + e.getMessage(),
          e);
    }
  }

  private static PrivateKey pkcs8(byte[] der) {
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
        // Not this algorithm: try the next one.
      }
    }
    throw new IllegalArgumentException("the private key is not an RSA, EC or EdDSA key this JDK can read");
  }

  /** The curve OID of a SEC 1 ECPrivateKey: its {@code [0]} parameters field (RFC 5915). */
  private static byte[] namedCurve(byte[] sec1) {
    Der outer = new Der(sec1, 0);
    if (outer.tag != 0x30) {
      throw new IllegalArgumentException("EC PRIVATE KEY is not a DER sequence");
    }
    int at = outer.contentStart;
    while (at < outer.end) {
      Der field = new Der(sec1, at);
      if (field.tag == 0xa0) {
        Der oid = new Der(sec1, field.contentStart);
        if (oid.tag == 0x06) {
          return Arrays.copyOfRange(sec1, field.contentStart, oid.end);
        }
      }
      at = field.end;
    }
    throw new IllegalArgumentException("EC PRIVATE KEY names no curve (write it with its parameters)");
  }

  /** One DER tag-length-value read at an offset. */
  private static final class Der {
    final int tag;
    final int contentStart;
    final int end;

    Der(byte[] der, int at) {
      if (at + 2 > der.length) {
        throw new IllegalArgumentException("truncated DER");
      }
      tag = der[at] & 0xff;
      int first = der[at + 1] & 0xff;
      int length;
      int start;
      if (first < 0x80) {
        length = first;
        start = at + 2;
      } else {
        int n = first & 0x7f;
        if (n == 0 || n > 3 || at + 2 + n > der.length) {
          throw new IllegalArgumentException("bad DER length");
        }
        length = new BigInteger(1, Arrays.copyOfRange(der, at + 2, at + 2 + n)).intValueExact();
        start = at + 2 + n;
      }
      if (start + length > der.length) {
        throw new IllegalArgumentException("truncated DER");
      }
      contentStart = start;
      end = start + length;
    }
  }

  private static byte[] sequence(byte[]... parts) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      content.writeBytes(p);
    }
    return tlv(0x30, content.toByteArray());
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      byte[] len = BigInteger.valueOf(n).toByteArray();
      int skip = len[0] == 0 ? 1 : 0;
      out.write(0x80 | (len.length - skip));
      out.write(len, skip, len.length - skip);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }
}

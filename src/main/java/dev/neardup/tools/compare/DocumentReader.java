package dev.neardup.tools.compare;

import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.NeardupException;
import dev.neardup.text.ContentType;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the documents named on the command line: a file path, {@code -} for standard input, a
 * {@code file:} URL, or an {@code http://} / {@code https://} URL (fetched with the JDK's HTTP
 * client: 10 s timeouts, redirects followed, User-Agent {@code neardup/VERSION}). Decides each
 * document's {@link ContentType} unless the user forces one.
 *
 * <p>Bytes are decoded as UTF-8, or for HTTP with the charset of the {@code Content-Type} header;
 * malformed input is replaced by U+FFFD and reported through the warning callback. Problems the
 * user can fix in the arguments (missing or unreadable file, bad URL) are usage errors; network
 * failures and HTTP error statuses are failures ({@link NeardupException}).
 */
public final class DocumentReader {

    /** Connect and request timeout of HTTP fetches. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final Pattern URL_SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://");
    private static final Pattern CHARSET =
            Pattern.compile("(?i)(?:^|;)\\s*charset\\s*=\\s*\"?([^\";\\s]+)");

    /** {@code --content-type}: decide from the source, or force HTML or plain text. */
    public enum ContentTypeOption {
        AUTO,
        HTML,
        TEXT
    }

    /**
     * A document read from the command line.
     *
     * @param source the argument that named it ({@code -} for standard input)
     * @param typeReason why: {@code "--content-type"}, {@code "file extension .html"}, {@code
     *     "Content-Type text/html"} or {@code "content sniffing"}
     */
    public record Document(String source, String content, ContentType type, String typeReason) {}

    private final InputStream stdin;
    private final Consumer<String> warnings;
    private final String userAgent;
    private HttpClient http;

    /**
     * @param stdin what {@code -} reads
     * @param warnings receives warnings (malformed input, unknown charset), one line each
     */
    public DocumentReader(InputStream stdin, String userAgent, Consumer<String> warnings) {
        this.stdin = Objects.requireNonNull(stdin, "stdin");
        this.userAgent = userAgent;
        this.warnings = Objects.requireNonNull(warnings, "warnings");
    }

    /** Reads the document {@code argument} names, with the given content type choice. */
    public Document read(String argument, ContentTypeOption choice) {
        if (argument.equals("-")) {
            String text = decode(readStdin(), StandardCharsets.UTF_8, "standard input");
            return typed(argument, text, choice, null, null);
        }
        Matcher scheme = URL_SCHEME.matcher(argument);
        String lower = argument.toLowerCase(Locale.ROOT);
        if (scheme.lookingAt() && (lower.startsWith("http://") || lower.startsWith("https://"))) {
            return fetch(argument, choice);
        }
        if (lower.startsWith("file:")) {
            return readFile(argument, fileUrlPath(argument), choice);
        }
        if (scheme.lookingAt()) {
            throw NeardupException.usage(
                    "unsupported URL scheme '"
                            + scheme.group(1)
                            + "' in "
                            + argument
                            + "; give a file path, '-' for standard input, a file: URL or an"
                            + " http(s):// URL");
        }
        Path path;
        try {
            path = Path.of(argument);
        } catch (InvalidPathException e) {
            throw NeardupException.usage("not a valid file path: " + argument);
        }
        return readFile(argument, path, choice);
    }

    private byte[] readStdin() {
        try {
            return stdin.readAllBytes();
        } catch (IOException e) {
            throw NeardupException.failure("cannot read standard input: " + e.getMessage(), e);
        }
    }

    private static Path fileUrlPath(String argument) {
        try {
            return Path.of(new URI(argument));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw NeardupException.usage(
                    "not a valid file URL: "
                            + argument
                            + " (write file:///absolute/path, or just the path)");
        }
    }

    private Document readFile(String argument, Path path, ContentTypeOption choice) {
        CliFiles.readableFile("file", argument, path);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw NeardupException.usage("file not found: " + argument);
        } catch (AccessDeniedException e) {
            throw NeardupException.usage("cannot read " + argument + ": permission denied");
        } catch (IOException e) {
            throw NeardupException.failure(
                    "cannot read " + argument + ": " + NeardupException.oneLine(e.toString()), e);
        }
        String text = decode(bytes, StandardCharsets.UTF_8, argument);
        Path name = path.getFileName();
        return typed(argument, text, choice, name == null ? null : name.toString(), null);
    }

    private Document fetch(String argument, ContentTypeOption choice) {
        URI uri;
        HttpRequest request;
        try {
            uri = new URI(argument);
            if (uri.getHost() == null) {
                throw new URISyntaxException(argument, "no host");
            }
            request =
                    HttpRequest.newBuilder(uri)
                            .timeout(TIMEOUT)
                            .header("User-Agent", userAgent)
                            .header(
                                    "Accept",
                                    "text/html, application/xhtml+xml, text/plain;q=0.9,"
                                            + " */*;q=0.5")
                            .GET()
                            .build();
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw NeardupException.usage("not a valid URL: " + argument);
        }
        if (http == null) {
            http =
                    HttpClient.newBuilder()
                            .connectTimeout(TIMEOUT)
                            .followRedirects(HttpClient.Redirect.NORMAL)
                            .build();
        }
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            String within = " within " + TIMEOUT.toSeconds() + " s";
            throw cannotFetch(argument, "no connection to " + uri.getHost() + within, e);
        } catch (HttpTimeoutException e) {
            throw cannotFetch(argument, "no response within " + TIMEOUT.toSeconds() + " s", e);
        } catch (IOException e) {
            throw cannotFetch(argument, networkError(e, uri), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw NeardupException.failure("interrupted while fetching " + argument, e);
        }
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            String finalUri = response.uri().toString();
            throw cannotFetch(
                    argument,
                    "the server answered HTTP "
                            + status
                            + reasonPhrase(status)
                            + (finalUri.equals(argument) ? "" : " (from " + finalUri + ")"),
                    null);
        }
        String contentType = response.headers().firstValue("Content-Type").orElse(null);
        String text = decode(response.body(), charsetOf(contentType, argument), argument);
        return typed(argument, text, choice, null, contentType);
    }

    private static NeardupException cannotFetch(String argument, String why, Exception cause) {
        return NeardupException.failure("cannot fetch " + argument + ": " + why, cause);
    }

    /** A short description of a network failure, whose JDK message is often null. */
    private static String networkError(IOException e, URI uri) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "unknown host " + uri.getHost();
            }
        }
        if (e instanceof ConnectException) {
            return "cannot connect to "
                    + uri.getHost()
                    + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
                    + (e.getMessage() != null ? " (" + e.getMessage() + ")" : "");
        }
        String message = e.getMessage();
        return message != null ? message : e.getClass().getSimpleName();
    }

    private static String reasonPhrase(int status) {
        return switch (status) {
            case 400 -> " (Bad Request)";
            case 401 -> " (Unauthorized)";
            case 403 -> " (Forbidden)";
            case 404 -> " (Not Found)";
            case 410 -> " (Gone)";
            case 429 -> " (Too Many Requests)";
            case 500 -> " (Internal Server Error)";
            case 502 -> " (Bad Gateway)";
            case 503 -> " (Service Unavailable)";
            case 504 -> " (Gateway Timeout)";
            default -> "";
        };
    }

    /** The charset named in a Content-Type header, UTF-8 when there is none or it is unknown. */
    private Charset charsetOf(String contentType, String source) {
        if (contentType == null) {
            return StandardCharsets.UTF_8;
        }
        Matcher m = CHARSET.matcher(contentType);
        if (!m.find()) {
            return StandardCharsets.UTF_8;
        }
        String name = m.group(1);
        try {
            return Charset.forName(name);
        } catch (IllegalArgumentException e) {
            warnings.accept(
                    "warning: "
                            + source
                            + " declares unknown charset '"
                            + name
                            + "'; read as UTF-8");
            return StandardCharsets.UTF_8;
        }
    }

    /** Decodes strictly; on malformed input decodes again with replacement and warns. */
    private String decode(byte[] bytes, Charset charset, String source) {
        String text;
        try {
            text =
                    charset.newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes))
                            .toString();
        } catch (CharacterCodingException e) {
            text = new String(bytes, charset);
            warnings.accept(
                    "warning: "
                            + source
                            + " is not valid "
                            + charset.name()
                            + "; malformed bytes were replaced by U+FFFD");
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private static Document typed(
            String source,
            String text,
            ContentTypeOption choice,
            String fileName,
            String mimeType) {
        if (choice != ContentTypeOption.AUTO) {
            return new Document(
                    source,
                    text,
                    ContentType.valueOf(choice.name()),
                    "--content-type " + choice.name().toLowerCase(Locale.ROOT));
        }
        if (fileName != null) {
            String name = fileName.toLowerCase(Locale.ROOT);
            String extension = name.substring(Math.max(0, name.lastIndexOf('.')));
            ContentType type =
                    switch (extension) {
                        case ".html", ".htm", ".xhtml" -> ContentType.HTML;
                        case ".txt" -> ContentType.TEXT;
                        default -> null;
                    };
            if (type != null) {
                return new Document(source, text, type, "file extension " + extension);
            }
        }
        if (mimeType != null && !mimeType.isBlank()) {
            String mime = mimeType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
            // ContentType.detect uses these types and sniffs the content for all others.
            if (mime.startsWith("text/") || mime.equals("application/xhtml+xml")) {
                return new Document(
                        source, text, ContentType.detect(mimeType, text), "Content-Type " + mime);
            }
        }
        return new Document(source, text, ContentType.detect(null, text), "content sniffing");
    }
}

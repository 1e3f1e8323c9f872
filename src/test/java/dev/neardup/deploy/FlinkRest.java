package dev.neardup.deploy;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.neardup.io.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The Flink REST API as a user calls it (what the web UI and {@code curl} use): jar upload and run,
 * job status, stop-with-savepoint, cancel. Errors fail the test with Flink's answer.
 */
final class FlinkRest {

    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    FlinkRest(URI base) {
        this.base = base;
    }

    /** POST /jars/upload (multipart, field {@code jarfile}); returns the jar id. */
    String uploadJar(Path jar) throws Exception {
        String boundary = "neardup-" + UUID.randomUUID();
        String head =
                "--"
                        + boundary
                        + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                        + jar.getFileName()
                        + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n";
        String tail = "\r\n--" + boundary + "--\r\n";
        HttpRequest request =
                HttpRequest.newBuilder(base.resolve("/jars/upload"))
                        .timeout(Duration.ofMinutes(2))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(
                                BodyPublishers.concat(
                                        BodyPublishers.ofString(head),
                                        BodyPublishers.ofFile(jar),
                                        BodyPublishers.ofString(tail)))
                        .build();
        JsonNode answer = send(request);
        if (!answer.path("status").asText().equals("success")) {
            fail("jar upload failed: %s", answer);
        }
        String filename = answer.get("filename").asText();
        return filename.substring(filename.lastIndexOf('/') + 1);
    }

    /** POST /jars/{id}/run; returns the job id. */
    String run(String jarId, List<String> args, int parallelism, String savepointPath)
            throws Exception {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.putPOJO("programArgsList", args);
        body.put("parallelism", parallelism);
        if (savepointPath != null) {
            body.put("savepointPath", savepointPath);
        }
        JsonNode answer = call("POST", "/jars/" + jarId + "/run", body);
        return answer.get("jobid").asText();
    }

    JsonNode job(String jobId) throws Exception {
        return call("GET", "/jobs/" + jobId, null);
    }

    /** Waits until the job and all its tasks run; fails early if the job ends. */
    void awaitRunning(String jobId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode job = null;
        while (System.nanoTime() < deadline) {
            job = job(jobId);
            String state = job.get("state").asText();
            if (Set.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
                fail("job %s is %s: %s", jobId, state, rootException(jobId));
            }
            boolean allRunning = job.get("vertices").size() > 0;
            for (JsonNode v : job.get("vertices")) {
                allRunning &= v.get("status").asText().equals("RUNNING");
            }
            if (state.equals("RUNNING") && allRunning) {
                return;
            }
            Thread.sleep(250);
        }
        fail("job %s is not running after %s: %s", jobId, timeout, job);
    }

    /** Waits until the job is in a terminal state; returns it. */
    String awaitTerminal(String jobId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String state = "?";
        while (System.nanoTime() < deadline) {
            state = job(jobId).get("state").asText();
            if (Set.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
                return state;
            }
            Thread.sleep(250);
        }
        fail("job %s still %s after %s", jobId, state, timeout);
        return state;
    }

    /**
     * POST /jobs/{id}/stop (stop-with-savepoint into the cluster's default savepoint directory),
     * then polls GET /jobs/{id}/savepoints/{triggerId}; returns the savepoint's location.
     */
    String stopWithSavepoint(String jobId, Duration timeout) throws Exception {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("drain", false);
        String trigger = call("POST", "/jobs/" + jobId + "/stop", body).get("request-id").asText();
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode status = null;
        while (System.nanoTime() < deadline) {
            status = call("GET", "/jobs/" + jobId + "/savepoints/" + trigger, null);
            if (status.path("status").path("id").asText().equals("COMPLETED")) {
                JsonNode operation = status.get("operation");
                if (operation.has("failure-cause")) {
                    fail("stop-with-savepoint failed: %s", operation.get("failure-cause"));
                }
                return operation.get("location").asText();
            }
            Thread.sleep(250);
        }
        fail("stop-with-savepoint of %s not done after %s: %s", jobId, timeout, status);
        return null;
    }

    /**
     * GET /jobs/{id}/checkpoints: counts, the latest completed checkpoint, and the checkpoint the
     * job was restored from ({@code latest.restored}), as this JobManager saw them.
     */
    JsonNode checkpoints(String jobId) throws Exception {
        return call("GET", "/jobs/" + jobId + "/checkpoints", null);
    }

    /** PATCH /jobs/{id}?mode=cancel. */
    void cancel(String jobId) throws Exception {
        call("PATCH", "/jobs/" + jobId + "?mode=cancel", null);
    }

    /** GET /jobs/{id}/exceptions: the job's failure history (newest first). */
    JsonNode exceptions(String jobId) throws Exception {
        return call("GET", "/jobs/" + jobId + "/exceptions", null);
    }

    private String rootException(String jobId) {
        try {
            return exceptions(jobId).path("exceptionHistory").toString();
        } catch (Exception e) {
            return "(no exception history: " + e + ")";
        }
    }

    JsonNode call(String method, String path, JsonNode body) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
        if (body == null) {
            request.method(method, BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, BodyPublishers.ofString(Json.write(body)));
        }
        return send(request.build());
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            fail(
                    "%s %s answered %d: %s",
                    request.method(), request.uri(), response.statusCode(), response.body());
        }
        String text = response.body();
        return text.isBlank()
                ? Json.MAPPER.createObjectNode()
                : Json.MAPPER.readTree(response.body());
    }
}

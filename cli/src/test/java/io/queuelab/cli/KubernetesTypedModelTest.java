package io.queuelab.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every manifest deploy/kubernetes/render writes, read into fabric8's typed Kubernetes model with
 * unknown fields refused: a misspelt or misplaced field (which the API server would reject, or
 * silently drop) fails here. fabric8's model keeps unknown fields in its classes' additional
 * properties; this reader turns that off, so that Jackson's unknown-property check applies.
 */
class KubernetesTypedModelTest {
    /** YAML into fabric8's classes, an unknown field an error. */
    private static final ObjectMapper STRICT = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setAnnotationIntrospector(new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasAnySetter(Annotated a) {
                    return false;
                }
            });
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of("PersistentVolumeClaim",
            PersistentVolumeClaim.class, "Deployment", Deployment.class, "Service", Service.class, "Job", Job.class,
            "Pod", Pod.class);

    @TempDir
    Path dir;

    @Test
    void everyRenderedManifestIsValidInTheTypedModel() throws Exception {
        Path out = dir.resolve("k8s");
        RenderedManifests.Result rendered = RenderedManifests.render(out, List.of("--name", "cl8", "--nodes", "3", "--image", "q:1",
                        "--namespace", "load", "--storage-class", "nfs-client", "--password-secret", "db", "--memory", "3Gi"),
                List.of("--backend", "noop", "--rate", "300", "--duration", "5s"));
        assertEquals(0, rendered.code(), rendered.output());

        List<String> kinds = new ArrayList<>();
        for (String file : List.of("1-results.yaml", "2-clock.yaml", "3-generators.yaml", "4-merge.yaml")) {
            for (JsonNode doc : RenderedManifests.read(out.resolve(file))) {
                String kind = doc.path("kind").asText();
                HasMetadata typed = STRICT.treeToValue(doc, KINDS.get(kind));
                assertEquals("load", typed.getMetadata().getNamespace(), file);
                kinds.add(kind);
                if (typed instanceof Job job) {
                    assertEquals(0, job.getSpec().getBackoffLimitPerIndex());
                    assertEquals(2, job.getSpec().getMaxFailedIndexes());
                    var container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
                    assertEquals(container.getResources().getRequests().get("memory"),
                            container.getResources().getLimits().get("memory"));
                    assertTrue(job.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot());
                }
                if (typed instanceof PersistentVolumeClaim claim) {
                    assertEquals("nfs-client", claim.getSpec().getStorageClassName());
                }
            }
        }
        assertEquals(List.of("PersistentVolumeClaim", "Deployment", "Service", "Job", "Pod"), kinds);
    }

    @Test
    void aMisplacedFieldIsRefused() throws Exception {
        JsonNode job = YAML.readTree("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: x}
                spec:
                  backofLimitPerIndex: 0
                """);
        assertThrows(com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException.class,
                () -> STRICT.treeToValue(job, Job.class));
    }
}

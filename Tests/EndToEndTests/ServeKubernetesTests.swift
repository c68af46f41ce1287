import Foundation
import Testing

/// `deploy/kubernetes/sumi-serve.yaml` parsed (by PyYAML) and checked against `sumi serve`: its
/// options exist, the probes reach the endpoints on the port it listens on, the grace period covers
/// the drain, the memory limit and request cover the measured bound (docs/service.md), and the
/// Service and the autoscaler point at the Deployment.
@Suite struct ServeKubernetesTests {
    @Test func theManifestsMatchTheServer() throws {
        let script = """
        import json, sys, yaml
        print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))
        """
        let parsed = try ProcessRunner.run("/usr/bin/python3", ["-c", script, CLI.root + "/deploy/kubernetes/sumi-serve.yaml"])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String: Any]])
        func document(_ kind: String) -> [String: Any]? { documents.first { $0["kind"] as? String == kind } }
        let deployment = try #require(document("Deployment"))
        let service = try #require(document("Service"))
        let autoscaler = try #require(document("HorizontalPodAutoscaler"))
        let name = try #require((deployment["metadata"] as? [String: Any])?["name"] as? String)

        let spec = try #require(deployment["spec"] as? [String: Any])
        let pod = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        let labels = try #require(((spec["template"] as? [String: Any])?["metadata"] as? [String: Any])?["labels"] as? [String: String])
        let container = try #require((pod["containers"] as? [[String: Any]])?.first)
        let args = try #require(container["args"] as? [String])
        #expect(args.first == "serve")

        // Every option the manifest gives is one `sumi serve --help` lists.
        let help = try CLI.run(["serve", "--help"]).stdout
        for option in args where option.hasPrefix("--") { #expect(help.contains(option), "\(option)") }
        func value(_ option: String) -> String? { args.firstIndex(of: option).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
        let listen = try #require(value("--listen"))
        let port = try #require(Int(listen.split(separator: ":").last ?? ""))
        let timeout = Int(value("--timeout") ?? "60") ?? 60

        let ports = try #require(container["ports"] as? [[String: Any]])
        #expect(ports.contains { $0["containerPort"] as? Int == port && $0["name"] as? String == "http" })
        let readiness = try #require((container["readinessProbe"] as? [String: Any])?["httpGet"] as? [String: Any])
        let liveness = try #require((container["livenessProbe"] as? [String: Any])?["httpGet"] as? [String: Any])
        #expect(readiness["path"] as? String == "/readyz" && readiness["port"] as? String == "http")
        #expect(liveness["path"] as? String == "/healthz" && liveness["port"] as? String == "http")
        let grace = try #require(pod["terminationGracePeriodSeconds"] as? Int)
        #expect(grace >= timeout + 5, "the grace period \(grace) s does not cover a drain of \(timeout) s")

        // Memory (docs/service.md, Memory): the limit covers the server and every worker at
        // --max-memory, the request the streamed runs of the shipped pipelines (30 MB + 100 MB a worker).
        func mebibytes(_ quantity: String?) -> Double? {
            guard let quantity else { return nil }
            for (suffix, factor) in [("Gi", 1024.0), ("Mi", 1.0), ("G", 1e9 / 1048576), ("M", 1e6 / 1048576)] where quantity.hasSuffix(suffix) {
                return Double(quantity.dropLast(suffix.count)).map { $0 * factor }
            }
            return Double(quantity).map { $0 / 1048576 }
        }
        let resources = try #require(container["resources"] as? [String: Any])
        let limit = try #require(mebibytes((resources["limits"] as? [String: Any])?["memory"] as? String))
        let request = try #require(mebibytes((resources["requests"] as? [String: Any])?["memory"] as? String))
        let workers = try #require(Double(value("--workers") ?? ""))
        let perWorker = try #require(Double(value("--max-memory") ?? ""), "the manifest must bound a worker's memory")
        #expect(limit * 1.048576 >= 30 + workers * perWorker, "a limit of \(limit) MiB is under 30 MB + \(workers) x \(perWorker) MB")
        #expect(request * 1.048576 >= 30 + workers * 100 && request <= limit, "a request of \(request) MiB")

        // Least privilege (issue 35, item 14): no root, no escalation, no capability, a read-only root
        // filesystem, the runtime's seccomp profile, no service-account token.
        let podSecurity = try #require(pod["securityContext"] as? [String: Any], "the pod needs a securityContext")
        let security = try #require(container["securityContext"] as? [String: Any], "the container needs a securityContext")
        #expect(podSecurity["runAsNonRoot"] as? Bool == true && (podSecurity["runAsUser"] as? Int ?? 0) != 0)
        #expect((podSecurity["seccompProfile"] as? [String: Any])?["type"] as? String == "RuntimeDefault")
        #expect(pod["automountServiceAccountToken"] as? Bool == false)
        #expect(security["allowPrivilegeEscalation"] as? Bool == false && security["readOnlyRootFilesystem"] as? Bool == true)
        #expect((security["capabilities"] as? [String: Any])?["drop"] as? [String] == ["ALL"])
        let mounts = try #require(container["volumeMounts"] as? [[String: Any]])
        #expect(mounts.contains { $0["mountPath"] as? String == "/tmp" }, "a read-only root needs a writable /tmp for the request folders")

        // In-cluster clients name the Service in Host (anything else is 421), and the request
        // folders' byte budget stays below their volume.
        let serviceName = try #require((service["metadata"] as? [String: Any])?["name"] as? String)
        #expect(args.indices.contains { args[$0] == "--allow-host" && $0 + 1 < args.count && args[$0 + 1] == serviceName }, "\(args)")
        let volumes = try #require(pod["volumes"] as? [[String: Any]])
        let tmpLimit = try #require(mebibytes(((volumes.first { $0["name"] as? String == "tmp" })?["emptyDir"] as? [String: Any])?["sizeLimit"] as? String))
        let maxDisk = try #require(Double(value("--max-disk") ?? ""), "the manifest must bound the request folders' bytes")
        #expect(maxDisk * 1e6 / 1048576 < tmpLimit, "--max-disk \(maxDisk) MB is not below the volume's \(tmpLimit) MiB")

        let selector = try #require((service["spec"] as? [String: Any])?["selector"] as? [String: String])
        #expect(selector.allSatisfy { labels[$0.key] == $0.value })
        let target = try #require((autoscaler["spec"] as? [String: Any])?["scaleTargetRef"] as? [String: Any])
        #expect(target["kind"] as? String == "Deployment" && target["name"] as? String == name)
    }
}

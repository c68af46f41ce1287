import SumiApp
import SumiEngine

/// The answer to one `/run` request, from its arrival: refusing it (a JSON error, counted in
/// `/metrics` under its pipeline, or `unknown`) and counting its end, with the latency from the
/// arrival. `ServeRouter.begin` makes one once the pipeline is known.
struct RunAnswer: Sendable {
    let router: ServeRouter
    let request: HTTPRequest
    /// The pipeline's name, or `unknown` for a name not served (the `/metrics` label).
    let label: String
    /// Monotonic time (`BatchPlan.now()`) of the request's arrival.
    let arrival: Double

    init(router: ServeRouter, request: HTTPRequest, pipeline name: String) {
        self.router = router
        self.request = request
        label = router.catalog.entries[name] == nil ? "unknown" : name
        arrival = BatchPlan.now()
    }

    /// Answers a JSON error without running (`started`: whether `ServeMetrics.start` counted it).
    func refuse(_ status: Int, _ message: String, parameter: String? = nil, extra: [(String, String)] = [], started: Bool = false) {
        router.error(request, status, message, parameter: parameter, extra: extra)
        finish(status: status, bytesOut: 0, started: started)
    }

    /// Counts the answer sent with `status`.
    func finish(status: Int, bytesOut: Int, started: Bool) {
        router.metrics.finish(pipeline: label, status: status, seconds: BatchPlan.now() - arrival, bytesOut: bytesOut, started: started)
    }
}

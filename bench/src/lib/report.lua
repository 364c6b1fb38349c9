-- Prints wrk's results as one JSON line, with the percentiles the benchmark reports.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"failed":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95),
    latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout))
end

-- Prints wrk's results as one JSON line, with the percentiles the benchmark reports and the whole
-- latency histogram ([microseconds, count] for every value that occurred), so that percentiles can
-- be taken over the answers of several rounds together (compare.ts, `percentileRatio`).
done = function(summary, latency, requests)
  local e = summary.errors
  local buckets = {}
  for i = 1, #latency do
    local value, count = latency(i)
    buckets[i] = string.format('[%d,%d]', value, count)
  end
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"failed":%d,"histogram_us":[%s]}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95),
    latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout, table.concat(buckets, ',')))
end

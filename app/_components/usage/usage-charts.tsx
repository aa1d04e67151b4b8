"use client";
/**
 * The Usage page's charts (recharts): tokens and cost per day, calls and errors per server, and
 * p50/p95 latency per day. Each sits in a labelled figure whose caption says what it shows; the
 * same figures are in the tables below, for anyone who would rather read than look.
 */
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsageReport } from "@/lib/usage/report";

function Figure({ title, testId, children }: { title: string; testId: string; children: React.ReactElement }) {
  return (
    <figure className="min-w-0 rounded-md border border-border p-3" data-testid={testId} aria-label={title}>
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <div className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const dollars = (micros: number) => micros / 1e6;

/** Daily tokens and cost, calls and errors per server, latency over time (when the scope has it). */
export function UsageCharts({ report }: { report: UsageReport }) {
  const days = report.daily.map((d) => ({
    day: d.day.slice(5),
    input: d.inputTokens,
    output: d.outputTokens,
    cost: dollars(d.costMicros),
    p50: d.p50Ms,
    p95: d.p95Ms,
  }));
  const servers = report.servers.map((s) => ({ name: s.serverName, ok: s.calls - s.errors, errors: s.errors }));
  const hasLatency = days.some((d) => d.p50 !== null);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Figure title="Tokens and cost per day" testId="chart-daily">
        <ComposedChart data={days} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="day" fontSize={12} />
          <YAxis yAxisId="tokens" fontSize={12} />
          <YAxis yAxisId="cost" orientation="right" fontSize={12} tickFormatter={(v: number) => `$${v}`} />
          <Tooltip />
          <Legend />
          <Bar yAxisId="tokens" dataKey="input" name="Input tokens" stackId="t" fill="#6366f1" />
          <Bar yAxisId="tokens" dataKey="output" name="Output tokens" stackId="t" fill="#22c55e" />
          <Line yAxisId="cost" dataKey="cost" name="Cost (USD)" stroke="#b45309" dot={false} />
        </ComposedChart>
      </Figure>
      <Figure title="Calls and errors per server" testId="chart-servers">
        <BarChart data={servers} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="name" fontSize={12} />
          <YAxis fontSize={12} allowDecimals={false} />
          <Tooltip />
          <Legend />
          <Bar dataKey="ok" name="Succeeded" stackId="c" fill="#0ea5e9" />
          <Bar dataKey="errors" name="Failed" stackId="c" fill="#dc2626" />
        </BarChart>
      </Figure>
      {hasLatency && (
        <Figure title="MCP latency per day (ms)" testId="chart-latency">
          <LineChart data={days} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" fontSize={12} />
            <YAxis fontSize={12} />
            <Tooltip />
            <Legend />
            <Line dataKey="p50" name="p50" stroke="#6366f1" dot={false} />
            <Line dataKey="p95" name="p95" stroke="#dc2626" dot={false} />
          </LineChart>
        </Figure>
      )}
    </div>
  );
}

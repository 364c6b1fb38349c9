import { join } from 'node:path';

/**
 * An nginx configuration for the bench: in the foreground, its pid, log and temporary files in
 * `workDir` under `name`, sendfile on, no access log; `body` is what goes inside `http { }`
 * after these settings (upstreams and servers).
 */
export function nginxConfig(workDir: string, name: string, body: string): string {
  const temp = join(workDir, name);
  return `
user root;
daemon off;
worker_processes auto;
pid ${join(workDir, `${name}.pid`)};
error_log ${join(workDir, `${name}-error.log`)} warn;
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type application/pdf;
  client_body_temp_path ${temp}-body;
  proxy_temp_path ${temp}-proxy;
  fastcgi_temp_path ${temp}-fastcgi;
  uwsgi_temp_path ${temp}-uwsgi;
  scgi_temp_path ${temp}-scgi;
${body}
}
`;
}

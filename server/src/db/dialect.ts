/** The two databases the portal runs on; migrations and repositories branch on it. */
export type Dialect = 'sqlite' | 'postgres';

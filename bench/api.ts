// The API as the benchmarks seed and time it through the local stack: one member's bearer token.

export interface Answer {
  status: number;
  json: { data?: { id?: string; fields?: Record<string, unknown> } } | undefined;
  text: string;
}

/** Requests under `base` ({app_url}/v2) with `token`; `entity` creates one (under `parentId`) and answers its id. */
export function apiClient(base: string, token: string) {
  const send = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Answer['json']) : undefined, text };
  };
  const entity = async (type: string, parentId?: string): Promise<string> => {
    const res = await send('POST', '/entities', {
      data: { type, fields: { name: type }, ...(parentId ? { relationships: [{ type: 'parent', target: { id: parentId } }] } : {}) },
    });
    if (res.status !== 201) throw new Error(`creating a ${type}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    return res.json!.data!.id!;
  };
  return { send, entity };
}

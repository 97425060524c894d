// Baseline of the bundle-size row: a hand-written Worker that verifies a token with fetch, as a
// developer would write it without the SDK (no replay memory, no retries, no byte caps, no
// binding checks, no typed errors).
const FIELD = 'svc-verification-token';

function verificationId(token) {
  try {
    const id = JSON.parse(atob(token)).verificationId;
    return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

export default {
  async fetch(request, env) {
    const form = await request.formData();
    const id = verificationId(String(form.get(FIELD) ?? ''));
    if (!id) return Response.json({ decision: 'reject' }, { status: 403 });
    const res = await fetch(`${env.SVC_BASE_URL}/captcha/v2/verifications/${id}/results`, {
      headers: { authorization: `Bearer ${env.SVC_API_KEY}` },
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined);
    const result = res?.ok ? await res.json() : undefined;
    const accept = result?.verificationPassed === true && result.score < 0.5;
    return Response.json({ decision: accept ? 'accept' : 'reject' }, { status: accept ? 200 : 403 });
  },
};

import { describe, expect, it } from 'vitest';
import { entryScriptOf, refusalOf } from './wallApi';

describe('wall screen calls', () => {
  it("tells the server's refusals of a link apart by their words", () => {
    expect(refusalOf('大屏链接已撤销')).toBe('revoked');
    expect(refusalOf('大屏链接已过期')).toBe('expired');
    expect(refusalOf('大屏链接所属租户已停用或已过期')).toBe('expired');
    expect(refusalOf('大屏链接无效')).toBe('invalid');
    expect(refusalOf('缺少大屏链接凭证')).toBe('invalid');
  });

  it('finds the entry script of a built console page, which changes with every build', () => {
    const built = '<head>\n<script type="module" crossorigin src="/assets/index-DP87yXt8.js"></script>\n<link rel="stylesheet" href="/assets/index.css"></head>';
    expect(entryScriptOf(built)).toBe('/assets/index-DP87yXt8.js');
    expect(entryScriptOf('<html><body>no scripts</body></html>')).toBeUndefined();
  });
});

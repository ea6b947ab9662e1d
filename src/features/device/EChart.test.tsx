import { act } from 'react';
import { createRoot } from 'react-dom/client';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import EChart from './EChart';
import { historyOption } from './historyOption';

// happy-dom has no canvas (STACK.md): draw with the SVG renderer.
echarts.use([SVGRenderer]);

describe('EChart', () => {
  it('draws the history option: a line and its band', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const host = document.createElement('div');
    host.style.width = '600px';
    host.style.height = '300px';
    document.body.append(host);
    const root = createRoot(host);
    const option = historyOption(
      { start: 0, end: 3000, legend: ['湿度'], series: [{ pointKey: 'humidity', name: '湿度', unit: '%', deviceCode: 'T', bucketMs: 1000, count: 9, data: [[0, 50], [1000, 52], [2000, 51]], buckets: [[0, 49, 51, 50, 49, 51, 3], [1000, 50, 99, 52, 50, 51, 3], [2000, 50, 52, 51, 50, 52, 3]] }] },
      { start: 0, end: 3000 },
    );
    await act(async () => root.render(<EChart option={option} renderer="svg" />));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    const svg = host.querySelector('svg');
    expect(svg).not.toBeNull();
    // The line, the band's two edges and the band's area.
    expect(host.querySelectorAll('path').length).toBeGreaterThanOrEqual(4);
    expect(host.textContent).toContain('湿度');
    await act(async () => root.unmount());
    host.remove();
  });
});

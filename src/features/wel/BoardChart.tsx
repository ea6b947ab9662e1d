import { BarChart } from 'echarts/charts';
import * as echarts from 'echarts/core';

/*
 * The board's charts: the history chart's ECharts component (lines, grid, legend, tooltip, canvas) and bars, which
 * only the board draws — registered here, so they load with the board's lazy chunk and never with the login page.
 */
echarts.use([BarChart]);

export { default } from '../device/EChart';

//! What the plots share: labels placed beside their points without covering each other or any point,
//! and a legend drawn in a box where no point is.
//!
//! Everything here works in pixels of the SVG (x to the right, y down); text sizes are estimated
//! (an SVG's text is laid out by whatever renders it), generously, so that labels keep apart in
//! common sans-serif fonts.

/// A rectangle in pixels, `x0 < x1`, `y0 < y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Rect {
    pub fn new(x0: i32, y0: i32, w: i32, h: i32) -> Self {
        Rect { x0, y0, x1: x0 + w, y1: y0 + h }
    }

    /// The square of side `2·r` around `(x, y)`: a point's marker.
    pub fn around((x, y): (i32, i32), r: i32) -> Self {
        Rect { x0: x - r, y0: y - r, x1: x + r, y1: y + r }
    }

    /// Whether the two share any area (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// Whether `self` lies wholly inside `area`.
    pub fn inside(&self, area: &Rect) -> bool {
        self.x0 >= area.x0 && self.x1 <= area.x1 && self.y0 >= area.y0 && self.y1 <= area.y1
    }
}

/// Estimated width in pixels of `text` at `size` px: 0.62 em a character, about a digit's width in
/// DejaVu Sans (the widest of the common sans-serif fonts), plus a little.
pub fn text_width(text: &str, size: f64) -> i32 {
    (text.chars().count() as f64 * size * 0.62).ceil() as i32 + 2
}

/// Radius in pixels of a point's marker, for [`place_labels`]'s keep-clear boxes.
pub const MARKER: i32 = 6;
/// Gap between a point and its label.
const GAP: i32 = 4;
/// The vertical offsets tried, in pixels (in steps of 4 px, nearest first, up then down).
const MAX_SHIFT: i32 = 120;

/// Distance in pixels from `p` to the nearest point of `r` (0 inside it).
pub fn distance(r: &Rect, (x, y): (i32, i32)) -> f64 {
    let dx = f64::from((r.x0 - x).max(0).max(x - r.x1));
    let dy = f64::from((r.y0 - y).max(0).max(y - r.y1));
    dx.hypot(dy)
}

/// Places one label of size `sizes[i]` (width, height) beside each point `anchors[i]`, in the order
/// given (the first get the best places): right of the point at its height if that is free, else left
/// of it, else each shifted up or down by 4 px, 8 px, … up to [`MAX_SHIFT`]. A place is free when it
/// lies inside `area` and overlaps no label placed before, no point's marker and no rectangle of
/// `keep_clear` (a legend, say); a place nearer to another point than to its own is taken only when
/// no other is free (a reader would give the label to that point). A label with no free place goes
/// right of its point at its height, over whatever is there. Returns each label's rectangle (text drawn
/// from its top-left corner).
pub fn place_labels(anchors: &[(i32, i32)], sizes: &[(i32, i32)], area: Rect, keep_clear: &[Rect]) -> Vec<Rect> {
    let markers: Vec<Rect> = anchors.iter().map(|&a| Rect::around(a, MARKER)).collect();
    let mut placed: Vec<Rect> = Vec::with_capacity(anchors.len());
    for (i, (&(x, y), &(w, h))) in anchors.iter().zip(sizes).enumerate() {
        let right = |dy: i32| Rect::new(x + MARKER + GAP, y - h / 2 + dy, w, h);
        let left = |dy: i32| Rect::new(x - MARKER - GAP - w, y - h / 2 + dy, w, h);
        let free = |r: &Rect| r.inside(&area) && !placed.iter().chain(&markers).chain(keep_clear).any(|o| o.overlaps(r));
        let own = |r: &Rect| {
            let d = distance(r, (x, y));
            anchors.iter().enumerate().all(|(j, &q)| j == i || distance(r, q) > d)
        };
        let candidates =
            || std::iter::once(0).chain((1..=MAX_SHIFT / 4).flat_map(|s| [-4 * s, 4 * s])).flat_map(|dy| [right(dy), left(dy)]);
        let spot = candidates().find(|r| free(r) && own(r)).or_else(|| candidates().find(|r| free(r))).unwrap_or_else(|| right(0));
        placed.push(spot);
    }
    placed
}

/// Whether a label at `r` needs a leader line to its point `(x, y)`: the point's height is not
/// within the label's.
pub fn needs_leader(r: &Rect, (_, y): (i32, i32)) -> bool {
    y < r.y0 || y > r.y1
}

/// The end of a leader line from point `p` to label `r`: the middle of the label's edge nearer to it.
pub fn leader_end(r: &Rect, p: (i32, i32)) -> (i32, i32) {
    let x = if p.0 <= r.x0 { r.x0 } else { r.x1 };
    (x, (r.y0 + r.y1) / 2)
}

/// The first of the four corners of `area` (lower right, upper left, lower left, upper right) where a
/// box of `size` (inset by `margin`) covers none of `points`; the lower right one when each covers
/// some.
pub fn legend_corner(area: Rect, size: (i32, i32), margin: i32, points: &[(i32, i32)]) -> Rect {
    let (w, h) = size;
    let corners = [
        Rect::new(area.x1 - margin - w, area.y1 - margin - h, w, h),
        Rect::new(area.x0 + margin, area.y0 + margin, w, h),
        Rect::new(area.x0 + margin, area.y1 - margin - h, w, h),
        Rect::new(area.x1 - margin - w, area.y0 + margin, w, h),
    ];
    corners.into_iter().find(|c| !points.iter().any(|&p| Rect::around(p, MARKER).overlaps(c))).unwrap_or(corners[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: Rect = Rect { x0: 0, y0: 0, x1: 800, y1: 500 };

    #[test]
    fn a_lone_point_is_labelled_on_its_right_at_its_height() {
        let r = place_labels(&[(100, 200)], &[(60, 14)], AREA, &[]);
        assert_eq!(r, [Rect::new(100 + MARKER + GAP, 193, 60, 14)]);
        assert!(!needs_leader(&r[0], (100, 200)));
    }

    #[test]
    fn a_point_at_the_right_edge_is_labelled_on_its_left() {
        let r = place_labels(&[(790, 200)], &[(60, 14)], AREA, &[]);
        assert_eq!(r[0].x1, 790 - MARKER - GAP);
        assert!(r[0].inside(&AREA));
    }

    /// Eight points nearly on top of each other (the FP32 kernels at one intensity): every label is
    /// inside the area, clear of every other label and of every marker, and within reach of its point.
    #[test]
    fn a_cluster_of_points_gets_labels_that_overlap_nothing() {
        let anchors: Vec<(i32, i32)> = (0..8).map(|i| (400 + (i % 2) * 3, 250 + i * 3)).collect();
        let sizes: Vec<(i32, i32)> = (0..8).map(|i| (text_width(&"x".repeat(10 + i), 13.0), 15)).collect();
        let legend = Rect::new(600, 400, 190, 90);
        let r = place_labels(&anchors, &sizes, AREA, &[legend]);
        for (i, a) in r.iter().enumerate() {
            assert!(a.inside(&AREA), "{a:?}");
            assert!(!a.overlaps(&legend), "{a:?}");
            for (j, b) in r.iter().enumerate().filter(|&(j, _)| j != i) {
                assert!(!a.overlaps(b), "labels {i} and {j} overlap: {a:?} {b:?}");
            }
            for p in &anchors {
                assert!(!a.overlaps(&Rect::around(*p, MARKER)), "label {i} covers the point {p:?}");
            }
            assert!((a.y0 + a.y1) / 2 - anchors[i].1 <= MAX_SHIFT + 8);
        }
        // Some of them had to move, and are then drawn with a leader line.
        assert!(r.iter().zip(&anchors).any(|(a, &p)| needs_leader(a, p)));
    }

    #[test]
    fn the_legend_goes_to_a_corner_without_points() {
        // Points in the lower right: the legend goes to the upper left.
        let c = legend_corner(AREA, (200, 100), 10, &[(700, 450)]);
        assert_eq!(c, Rect::new(10, 10, 200, 100));
        let c = legend_corner(AREA, (200, 100), 10, &[(100, 100)]);
        assert_eq!(c, Rect::new(590, 390, 200, 100));
    }

    /// A label goes where it is nearer its own point than any other, when such a place is free.
    #[test]
    fn a_label_is_nearer_its_own_point_than_any_other() {
        // The second point sits 8 px right of the first one's right-hand place (60 px wide, 10 px from
        // its own point), clear of it: nearer the second point, so the first label goes left.
        let anchors = [(300, 200), (300 + MARKER + GAP + 60 + 8, 200)];
        let r = place_labels(&anchors, &[(60, 14), (60, 14)], AREA, &[]);
        assert!(r[0].x1 <= 300, "{r:?}");
        for (i, a) in r.iter().enumerate() {
            let other = anchors[1 - i];
            assert!(distance(a, anchors[i]) < distance(a, other), "label {i}: {a:?}");
        }
        assert_eq!(distance(&Rect::new(0, 0, 10, 10), (13, 14)), 5.0);
        assert_eq!(distance(&Rect::new(0, 0, 10, 10), (5, 5)), 0.0);
    }

    #[test]
    fn leaders_end_on_the_near_edge() {
        let r = Rect::new(110, 100, 50, 14);
        assert_eq!(leader_end(&r, (100, 150)), (110, 107));
        assert_eq!(leader_end(&r, (200, 150)), (160, 107));
        assert!(needs_leader(&r, (100, 150)) && !needs_leader(&r, (100, 105)));
    }
}

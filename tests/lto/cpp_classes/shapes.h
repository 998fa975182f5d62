struct Circle { double r; double area() const; };
struct Rect { double w, h; double area() const; };
